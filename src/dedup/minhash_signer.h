#pragma once
// MinHashSigner: a document's MinHash signature and its LSH band keys.
//   signature[j] = min over shingles s of (a_j * h(s) + b_j) mod 2^32, j < bands * rows,
// with h the folded XXH3 of the shingle and (a_j odd, b_j) drawn from the seed (splitmix64).
// Band key k = XXH3-64 of the rows of band k (seeded with k), so two documents share a bucket
// in band k exactly when their rows there are equal (up to 2^-64 collisions).
// Defaults follow NeMo Curator: character 24-grams, 20 bands x 13 rows, seed 42.
#include <cstdint>
#include <string_view>
#include <vector>

#include "dedup/shingler.h"

namespace winnow {

struct MinHashParams {
  ShingleOptions shingles;
  int bands = 20;
  int rows = 13;
  uint64_t seed = 42;
  int hashes() const { return bands * rows; }
};

class MinHashSigner {
 public:
  explicit MinHashSigner(MinHashParams params);

  // Thread-safe. False (and an unchanged signature) for a text with no shingle.
  bool sign(std::string_view text, std::vector<uint32_t>& signature) const;
  // The signature from already computed shingle hashes.
  void sign_hashes(const std::vector<uint32_t>& hashes, std::vector<uint32_t>& signature) const;
  // keys[k] for k < bands.
  void band_keys(const std::vector<uint32_t>& signature, uint64_t* keys) const;

  const MinHashParams& params() const { return params_; }
  const Shingler& shingler() const { return shingler_; }

 private:
  MinHashParams params_;
  Shingler shingler_;
  std::vector<uint32_t> a_;
  std::vector<uint32_t> b_;
};

// P(two documents of Jaccard similarity s share at least one bucket) = 1 - (1 - s^r)^b.
double lsh_catch_probability(double similarity, int bands, int rows);
// The similarity at which that probability rises fastest, about (1/b)^(1/r).
double lsh_threshold(int bands, int rows);

}  // namespace winnow
