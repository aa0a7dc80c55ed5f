#include "models/hashed_embedder.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

namespace winnow {

namespace {

constexpr int kFamilies = 2;  // words and word n-grams share one table, character n-grams another
constexpr uint32_t kBuckets = 1u << HashedEmbedder::kBucketBits;

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// 1 + ln(count) for the small counts nearly every bucket has.
constexpr uint32_t kLogTableSize = 64;
struct SublinearTable {
  float weights[kLogTableSize];
  SublinearTable() {
    weights[0] = 0;
    for (uint32_t c = 1; c < kLogTableSize; ++c) weights[c] = 1.0f + std::log(float(c));
  }
};
const SublinearTable kSublinear;

// Combines a running n-gram hash with the next item's hash (order matters).
uint64_t combine(uint64_t h, uint64_t next) {
  h ^= next + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

uint64_t fmix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

bool word_byte(unsigned char c) {
  return c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

// Per-thread scratch: bucket counts of every family, and the buckets each family touched (in
// the order first met, which fixes the order of the floating-point sums).
// Branch-free where the branch would be a coin toss (new bucket or not, sign of a term).
struct Scratch {
  // 16 bits (saturating) keep the tables small enough to stay in the core's L2 cache.
  std::vector<uint16_t> counts = std::vector<uint16_t>(kFamilies * kBuckets, 0);
  // Sized to the most features a family can have before counting, so a bucket is always
  // written and the count of touched ones advanced only when it is new.
  std::array<std::vector<uint32_t>, kFamilies> touched;
  std::array<size_t, kFamilies> touched_count{};
  std::vector<float> weights;  // of the touched buckets, in order
  std::string words;           // lowercased words joined by single spaces
  std::vector<uint64_t> word_hashes;
  void prepare(int family, size_t most_features) {
    if (touched[family].size() < most_features) touched[family].resize(most_features);
    touched_count[family] = 0;
  }
  std::vector<uint32_t> gram_buckets;  // the character n-grams' buckets, before counting
  static uint32_t bucket_of(uint64_t hash) {
    return static_cast<uint32_t>(hash >> (64 - HashedEmbedder::kBucketBits));
  }
  void count(int family, uint64_t hash) { count_bucket(family, bucket_of(hash)); }
  void count_bucket(int family, uint32_t bucket) {
    uint16_t& c = counts[family * kBuckets + bucket];
    touched[family][touched_count[family]] = bucket;
    touched_count[family] += c == 0;
    c += c != 0xffff;
  }
};

// The text's words, lowercased (ASCII only: a table-free, locale-free fold), joined by single
// spaces into s.words, each word's hash in s.word_hashes.
void split_words(std::string_view text, uint64_t seed, Scratch& s) {
  s.words.resize(text.size() + 1);
  s.word_hashes.clear();
  char* words = s.words.data();
  size_t length = 0;
  for (size_t i = 0; i < text.size();) {
    if (!word_byte(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    if (length > 0) words[length++] = ' ';
    size_t word_start = length;
    for (; i < text.size() && word_byte(static_cast<unsigned char>(text[i])); ++i) {
      char c = text[i];
      words[length++] = c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c;
    }
    s.word_hashes.push_back(XXH3_64bits_withSeed(words + word_start, length - word_start, seed));
  }
  s.words.resize(length);
}

// Words and word n-grams: family 0, salted by n so "a b" and a word hashing like it differ.
void count_word_ngrams(int max_n, Scratch& s) {
  for (int n = 1; n <= max_n; ++n) {
    for (size_t w = 0; w + n <= s.word_hashes.size(); ++w) {
      uint64_t h = static_cast<uint64_t>(n);
      for (int k = 0; k < n; ++k) h = combine(h, s.word_hashes[w + k]);
      s.count(0, h);
    }
  }
}

// Code-point n-grams over the joined words: family 1. A code point is packed as its UTF-8
// bytes (at most 4), which identifies it without decoding; stray continuation bytes count as
// code points of their own.
void count_char_ngrams(int n, uint64_t seed, Scratch& s) {
  // A gram's hash is a sum of its packed code points times a constant per position, mixed
  // once.
  static constexpr uint64_t kPosition[16] = {
      0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull, 0xd6e8feb86659fd93ull,
      0xff51afd7ed558ccdull, 0xc4ceb9fe1a85ec53ull, 0x94d049bb133111ebull, 0xbf58476d1ce4e5b9ull,
      0x27d4eb2f165667c5ull, 0x85ebca77c2b2ae63ull, 0xa0761d6478bd642full, 0xe7037ed1a0b428dbull,
      0x8ebc6af09c88c6e3ull, 0x589965cc75374cc3ull, 0x1d8e4e27c47d124full, 0x9fb21c651e98df25ull};
  uint32_t window[16] = {};  // a ring: the newest code point at (filled - 1) & 15
  int filled = 0;
  const std::string& w = s.words;
  auto gram_hash = [&](int length) {
    uint64_t h = seed ^ static_cast<uint64_t>(length);
    for (int k = 0; k < length; ++k) {
      h += (window[(filled - length + k) & 15] + 1ull) * kPosition[k];
    }
    return fmix64(h);
  };
  for (size_t i = 0; i < w.size();) {
    auto lead = static_cast<unsigned char>(w[i]);
    uint32_t packed = lead;
    size_t k = 1;
    if (lead >= 0xC0) {
      size_t length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
      for (;
           k < length && i + k < w.size() && (static_cast<unsigned char>(w[i + k]) & 0xC0) == 0x80;
           ++k) {
        packed = (packed << 8) | static_cast<unsigned char>(w[i + k]);
      }
    }
    i += k;
    window[filled & 15] = packed;
    if (++filled >= n) {
      // Hashed first and counted after, with the count's cache line fetched meanwhile: the
      // counts are mostly cache misses, and this lets them overlap.
      uint32_t bucket = Scratch::bucket_of(gram_hash(n));
      __builtin_prefetch(&s.counts[kBuckets + bucket], 1);
      s.gram_buckets.push_back(bucket);
    }
  }
  if (filled < n) s.gram_buckets.push_back(Scratch::bucket_of(gram_hash(filled)));
  for (uint32_t bucket : s.gram_buckets) s.count_bucket(1, bucket);
  s.gram_buckets.clear();
}

// Sublinear TF per bucket, each family scaled to unit norm, projected sparsely: one 64-bit
// hash of the bucket gives its kNonZeros (dimension, sign) pairs, 16 bits each.
void project(Scratch& s, uint64_t seed, std::span<float> out) {
  static_assert(HashedEmbedder::kNonZeros == 4);
  const uint64_t dims = out.size();
  for (int family = 0; family < kFamilies; ++family) {
    const uint32_t* touched = s.touched[family].data();
    const size_t touched_count = s.touched_count[family];
    if (touched_count == 0) continue;
    uint16_t* counts = s.counts.data() + family * kBuckets;
    s.weights.resize(touched_count);
    double squares = 0;
    for (size_t t = 0; t < touched_count; ++t) {
      uint16_t& c = counts[touched[t]];
      float weight = c < kLogTableSize ? kSublinear.weights[c] : 1.0f + std::log(float(c));
      c = 0;
      s.weights[t] = weight;
      squares += static_cast<double>(weight) * weight;
    }
    const float scale = static_cast<float>(1.0 / std::sqrt(squares));
    const uint64_t family_salt = seed ^ (static_cast<uint64_t>(family + 1) << 40);
    for (size_t t = 0; t < touched_count; ++t) {
      const uint32_t weight_bits = std::bit_cast<uint32_t>(s.weights[t] * scale);
      uint64_t state = family_salt ^ touched[t];
      uint64_t r = splitmix64(state);
      for (int k = 0; k < 4; ++k) {
        uint32_t bits = static_cast<uint32_t>(r >> (16 * k)) & 0xffffu;
        uint64_t dim = ((bits & 0x7fffu) * dims) >> 15;
        // The sign bit of the 16 flips the weight's own sign bit.
        out[dim] += std::bit_cast<float>(weight_bits ^ ((bits & 0x8000u) << 16));
      }
    }
  }
}

// The vector scaled to unit length (left at zero when it is zero).
void normalize(std::span<float> out) {
  double norm = 0;
  for (float v : out) norm += static_cast<double>(v) * v;
  if (norm > 0) {
    const float inverse = static_cast<float>(1.0 / std::sqrt(norm));
    for (float& v : out) v *= inverse;
  }
}

}  // namespace

void HashedEmbedder::embed(std::string_view text, std::span<float> out) const {
  thread_local Scratch s;
  const uint64_t seed = options_.seed;
  std::fill(out.begin(), out.end(), 0.0f);
  split_words(text, seed, s);
  s.prepare(0, s.word_hashes.size() * std::max(options_.word_ngrams, 0));
  s.prepare(1, s.words.size() + 1);
  count_word_ngrams(options_.word_ngrams, s);
  if (options_.char_ngram > 0 && !s.words.empty()) count_char_ngrams(options_.char_ngram, seed, s);
  project(s, seed, out);
  normalize(out);
}

}  // namespace winnow
