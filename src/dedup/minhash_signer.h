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

// kClassic: K permutations, each a minimum over all shingles (K hash evaluations per shingle).
// kOnePermutation: one-permutation hashing with optimal densification (Shrivastava 2017):
// each shingle is hashed once into one of K bins and only that bin's minimum is updated;
// empty bins borrow from a bin found by a fixed (document-independent) probe sequence. One
// evaluation per shingle instead of K; tested as accurate as kClassic on planted pairs.
enum class MinHashScheme { kClassic, kOnePermutation };

struct MinHashParams {
  ShingleOptions shingles;
  MinHashScheme scheme = MinHashScheme::kClassic;
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
  // The classic scheme's permutations a * h + b (the GPU signer is given the same).
  const std::vector<uint32_t>& permutation_a() const { return a_; }
  const std::vector<uint32_t>& permutation_b() const { return b_; }
  const Shingler& shingler() const { return shingler_; }

 private:
  MinHashParams params_;
  Shingler shingler_;
  void sign_one_permutation(const std::vector<uint32_t>& hashes,
                            std::vector<uint32_t>& signature) const;

  std::vector<uint32_t> a_;
  std::vector<uint32_t> b_;
  // One-permutation hashing: bin and value permutations, and each bin's probe sequence.
  uint32_t bin_a_ = 1, bin_b_ = 0, value_a_ = 1, value_b_ = 0;
  uint64_t probe_seed_ = 0;
};

// P(two documents of Jaccard similarity s share at least one bucket) = 1 - (1 - s^r)^b.
double lsh_catch_probability(double similarity, int bands, int rows);
// The similarity at which that probability rises fastest, about (1/b)^(1/r).
double lsh_threshold(int bands, int rows);

}  // namespace winnow
