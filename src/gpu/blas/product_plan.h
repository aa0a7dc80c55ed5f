#pragma once
// How similarity_device.cu cuts a call to fit a device-memory budget: plain arithmetic, apart
// so that it is unit-tested without a device (tests/gpu/blas/product_plan_test.cpp) and
// compiled by nvcc (no fmt here).
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>

namespace winnow::gpu {

// Max similarity: column blocks of `block` rows (at most 16,384: a product tile of at most
// 1 GB) and a resident panel of rows. The panel holds every row when they fit (each copied
// once); else whole blocks, the earlier rows streaming past it through two block buffers.
struct SimilarityPlan {
  size_t block = 0;
  size_t panel = 0;  // 0: not even one block fits the budget
  size_t passes = 0;
};

inline SimilarityPlan plan_max_similarity(size_t n, size_t d, size_t block, size_t budget) {
  SimilarityPlan plan;
  plan.block = std::max<size_t>(1, std::min({block, n, size_t{1} << 14}));
  const size_t b = plan.block;
  // Fixed: the product tile and the two streamed blocks; per resident row: its d floats, its
  // running maximum and its match.
  const size_t fixed = (b * b + 2 * b * d) * sizeof(float);
  const size_t per_row = d * sizeof(float) + sizeof(float) + sizeof(uint32_t);
  if (budget < fixed + b * per_row) return plan;
  size_t panel = std::min(n, (budget - fixed) / per_row);
  if (panel < n) panel = std::max(b, panel / b * b);
  plan.panel = panel;
  plan.passes = n == 0 ? 0 : (n + panel - 1) / panel;
  return plan;
}

// Bytes a tile row of the assignment takes (its d floats in each of two buffers, its k
// products, its label, score and runner-up's score in each of two output buffers), and the
// centroids' share.
inline size_t assignment_row_bytes(size_t d, size_t k) {
  return (2 * d + k) * sizeof(float) + 2 * (sizeof(int64_t) + 2 * sizeof(float));
}
inline size_t assignment_fixed_bytes(size_t d, size_t k) { return (k * d + k) * sizeof(float); }

// Assignment: rows per tile, within the budget, the products of a tile under 64 M floats
// (256 MB), and a grid's 2^31 - 1 blocks; 0 when the centroids and one row do not fit.
inline size_t plan_assignment_tile(size_t n, size_t d, size_t k, size_t budget) {
  const size_t fixed = assignment_fixed_bytes(d, k);
  const size_t per_row = assignment_row_bytes(d, k);
  if (budget < fixed + per_row) return 0;
  const size_t rows =
      std::min({n, (budget - fixed) / per_row,
                std::max<size_t>(1, (size_t{64} << 20) / std::max<size_t>({k, d, 1})),
                static_cast<size_t>(INT_MAX)});
  return std::max<size_t>(1, rows);
}

}  // namespace winnow::gpu
