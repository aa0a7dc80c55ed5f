#pragma once
// Seeded unit rows for the pruning tests: every third row a near-copy of an earlier one,
// perturbed by noise_step × (a draw below noise_levels) — 0 gives exact copies (equal maxima).
#include <algorithm>
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

// Planted near-copies with exact copies and near ties: row 3m + 2 is row 3m + 1 with one
// component nudged by a few ulps, so a later copy of row 3m + 1 sees two matches within the
// float error of each other.
inline std::vector<float> edge_rows(size_t n, size_t d, unsigned seed) {
  auto x = planted_unit_rows(n, d, seed, 0.002f, 4);
  for (size_t m = 0; 3 * m + 2 < n; m += 2) {
    std::copy(&x[(3 * m + 1) * d], &x[(3 * m + 2) * d], &x[(3 * m + 2) * d]);
    x[(3 * m + 2) * d + m % d] = std::nextafter(x[(3 * m + 2) * d + m % d], 2.0f);
  }
  return x;
}

}  // namespace winnow
