#pragma once
// Seeded unit rows for the pruning tests: every third row a near-copy of an earlier one,
// perturbed by noise_step × (a draw below noise_levels) — 0 gives exact copies (equal maxima).
#include <cmath>
#include <random>
#include <vector>

namespace winnow {

inline std::vector<float> planted_unit_rows(size_t n, size_t d, unsigned seed, float noise_step,
                                       unsigned noise_levels) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<float> x(n * d);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && i % 3 == 0) {
      size_t from = rng() % i;
      float noise = noise_step * static_cast<float>(rng() % noise_levels);
      for (size_t j = 0; j < d; ++j) x[i * d + j] = x[from * d + j] + noise * normal(rng);
    } else {
      for (size_t j = 0; j < d; ++j) x[i * d + j] = normal(rng);
    }
    double norm = 0;
    for (size_t j = 0; j < d; ++j) norm += double{x[i * d + j]} * x[i * d + j];
    for (size_t j = 0; j < d; ++j)
      x[i * d + j] = static_cast<float>(x[i * d + j] / std::sqrt(norm));
  }
  return x;
}

}  // namespace winnow
