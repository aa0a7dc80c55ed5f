#pragma once
// HashedEmbedder: a dense vector for a text without any model file, from its lexical features.
// It captures lexical similarity (shared words, phrases, spellings), not meaning: two
// paraphrases with no words in common are far apart. It is the default of the `embed` stage so
// that pipelines run on a fresh machine; a real model (`embed` with `model:`) gives semantic
// vectors.
//
// Features: words (maximal runs of ASCII letters/digits or non-ASCII bytes, ASCII lowercased),
// word n-grams up to `word_ngrams`, and code-point n-grams of length `char_ngram` over the
// lowercased words joined by single spaces (so they cover spelling variants and scripts written
// without spaces). Words with word n-grams, and character n-grams, are hashed into two tables
// of 2^15 buckets each (feature hashing).
//
// Weighting: sublinear term frequency, 1 + ln(count), per bucket. TF-IDF would need document
// frequencies from a pass over the whole input first; sublinear TF keeps the embedder a one-pass,
// per-document function (the same text always gets the same vector, in any run) while still
// damping words repeated many times. Each family's weights are scaled to unit norm, so the
// many character n-grams do not drown out the words.
//
// Projection: a very sparse random projection (Li, Hastie and Church, 2006): each bucket adds
// its weight, with a sign, to `kNonZeros` of the output dimensions, both drawn from a seeded hash
// of the bucket. No matrix is stored; the same seed gives the same projection everywhere. The
// result is L2-normalised (a text without any feature gets the zero vector), so dot products are
// cosine similarities.
//
// Deterministic: the vector depends only on the text, the dimensions and the seed. Thread-safe:
// scratch tables are per thread.
#include <cstdint>
#include <span>
#include <string_view>

namespace winnow {

struct HashedEmbedderOptions {
  int dimensions = 384;
  int word_ngrams = 2;  // words alone (1), plus word pairs (2), ...; 0: no word features
  int char_ngram = 4;   // code points per character n-gram; 0: none
  uint64_t seed = 0;
};

class HashedEmbedder {
 public:
  static constexpr int kNonZeros = 4;  // output dimensions each bucket adds to
  static constexpr int kBucketBits = 15;
  static constexpr int kMaxDimensions = 8192;

  explicit HashedEmbedder(HashedEmbedderOptions options) : options_(options) {}

  const HashedEmbedderOptions& options() const { return options_; }
  // Writes the text's vector to `out` (options().dimensions floats, at most kMaxDimensions).
  void embed(std::string_view text, std::span<float> out) const;

 private:
  HashedEmbedderOptions options_;
};

}  // namespace winnow
