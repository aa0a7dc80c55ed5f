#include "dedup/minhash_signer.h"

#include <xxhash.h>

#include <cmath>

#include "kernels/minhash_kernel.h"

namespace winnow {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t splitmix64_at(uint64_t x) {
  uint64_t state = x;
  return splitmix64(state);
}

}  // namespace

MinHashSigner::MinHashSigner(MinHashParams params) : params_(params), shingler_(params.shingles) {
  uint64_t state = params_.seed;
  const int k = params_.hashes();
  a_.resize(k);
  b_.resize(k);
  for (int j = 0; j < k; ++j) {
    uint64_t r = splitmix64(state);
    a_[j] = static_cast<uint32_t>(r) | 1u;  // odd: a bijection modulo 2^32
    b_[j] = static_cast<uint32_t>(r >> 32);
  }
  uint64_t r = splitmix64(state);
  bin_a_ = static_cast<uint32_t>(r) | 1u;
  bin_b_ = static_cast<uint32_t>(r >> 32);
  r = splitmix64(state);
  value_a_ = static_cast<uint32_t>(r) | 1u;
  value_b_ = static_cast<uint32_t>(r >> 32);
  probe_seed_ = splitmix64(state);
}

bool MinHashSigner::sign(std::string_view text, std::vector<uint32_t>& signature) const {
  thread_local std::vector<uint32_t> hashes;
  shingler_.hashes(text, hashes);
  if (hashes.empty()) return false;
  sign_hashes(hashes, signature);
  return true;
}

void MinHashSigner::sign_one_permutation(const std::vector<uint32_t>& hashes,
                                         std::vector<uint32_t>& signature) const {
  const uint64_t k = a_.size();
  signature.assign(k, 0xFFFFFFFFu);
  thread_local std::vector<uint8_t> filled;
  filled.assign(k, 0);
  for (uint32_t h : hashes) {
    // The bin from the top bits of one seeded bijection, the value from another.
    const uint32_t x = bin_a_ * h + bin_b_;
    const size_t bin = static_cast<size_t>((static_cast<uint64_t>(x) * k) >> 32);
    const uint32_t value = value_a_ * h + value_b_;
    if (value < signature[bin]) signature[bin] = value;
    filled[bin] = 1;
  }
  // Optimal densification: an empty bin i copies the first non-empty bin of the probe
  // sequence hash(i, 0), hash(i, 1), ... (the same for every document, so two documents with
  // the same non-empty bins borrow alike).
  thread_local std::vector<uint32_t> borrowed;
  borrowed = signature;
  for (uint64_t i = 0; i < k; ++i) {
    if (filled[i]) continue;
    for (uint64_t attempt = 0;; ++attempt) {
      uint64_t probe = splitmix64_at(probe_seed_ ^ (i << 32) ^ attempt);
      size_t j = static_cast<size_t>(((probe >> 32) * k) >> 32);
      if (filled[j]) {
        borrowed[i] = signature[j];
        break;
      }
    }
  }
  signature.swap(borrowed);
}

void MinHashSigner::sign_hashes(const std::vector<uint32_t>& hashes,
                                std::vector<uint32_t>& signature) const {
  if (params_.scheme == MinHashScheme::kOnePermutation) {
    return sign_one_permutation(hashes, signature);
  }
  signature.assign(a_.size(), 0xFFFFFFFFu);
  minhash_update(hashes.data(), hashes.size(), a_.data(), b_.data(), signature.data(), a_.size());
}

void MinHashSigner::band_keys(const std::vector<uint32_t>& signature, uint64_t* keys) const {
  const size_t rows = static_cast<size_t>(params_.rows);
  for (int band = 0; band < params_.bands; ++band) {
    keys[band] = XXH3_64bits_withSeed(signature.data() + band * rows, rows * sizeof(uint32_t),
                                      static_cast<uint64_t>(band) + 1);
  }
}

double lsh_catch_probability(double similarity, int bands, int rows) {
  return 1.0 - std::pow(1.0 - std::pow(similarity, rows), bands);
}

double lsh_threshold(int bands, int rows) { return std::pow(1.0 / bands, 1.0 / rows); }

}  // namespace winnow
