#pragma once
// Shingles of a document and their hashes. Character shingles (NeMo Curator) are windows of n
// code points over the raw text; word shingles (datatrove/FineWeb) are n consecutive words of
// the text normalised by normalize_for_word_shingles. A text shorter than one shingle is one
// shingle (all of it); an empty text has none.
//
// Each shingle is hashed with XXH3-64 (the base hash) and folded to 32 bits (high ^ low), the
// input of the 32-bit permutations (minhash_kernel.h).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

enum class ShingleKind { kChars, kWords };

struct ShingleOptions {
  ShingleKind kind = ShingleKind::kChars;
  int n = 24;
};

class Shingler {
 public:
  explicit Shingler(ShingleOptions options) : options_(options) {}

  // Replaces `out` with the hash of every shingle (repeats included, in text order).
  void hashes(std::string_view text, std::vector<uint32_t>& out) const;
  // The shingles themselves, for tests and for exact-Jaccard checks.
  std::vector<std::string> shingles(std::string_view text) const;

  // True when the shingles of `text` are its byte windows of n (character shingles of ASCII
  // text longer than n): the hot path, which a device can run from the text alone.
  bool byte_windows(std::string_view text) const;

  const ShingleOptions& options() const { return options_; }

 private:
  template <typename Emit>
  void for_each_shingle(std::string_view text, Emit&& emit) const;

  ShingleOptions options_;
};

inline uint32_t fold_hash(uint64_t h) { return static_cast<uint32_t>(h ^ (h >> 32)); }

}  // namespace winnow
