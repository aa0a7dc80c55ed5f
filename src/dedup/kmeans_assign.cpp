// assign_nearest (dedup/kmeans.h), apart from the k-means training on faiss: the CPU reference
// the GPU assignment is tested against, which the GPU-only build (cmake/gpu_only.cmake) compiles
// without faiss.
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "dedup/blas_gemm.h"
#include "dedup/kmeans.h"

namespace winnow {

namespace {

// Rows per product block: fixed by the number of centroids alone (about 4 MB of products per
// block), never by the thread count.
size_t block_rows(size_t k) {
  return std::clamp<size_t>((size_t{1} << 20) / std::max<size_t>(k, 1), 16, 4096);
}

void run_blocks(size_t blocks, int threads, const auto& body) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t b = next++; b < blocks; b = next++) body(b);
  };
  int helpers = std::min<int>(std::max(threads, 1), static_cast<int>(blocks)) - 1;
  std::vector<std::thread> pool;
  for (int t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace

void assign_nearest(const float* x, size_t n, size_t d, const float* centroids, size_t k,
                    bool inner_product, int threads, int64_t* labels, float* score) {
  std::vector<float> centroid_norms(k);
  for (size_t c = 0; c < k; ++c) {
    float s = 0;
    for (size_t j = 0; j < d; ++j) s += centroids[c * d + j] * centroids[c * d + j];
    centroid_norms[c] = s;
  }
  const size_t rows = block_rows(k);
  run_blocks((n + rows - 1) / rows, threads, [&](size_t b) {
    const size_t r0 = b * rows, r1 = std::min(n, r0 + rows);
    std::vector<float> dots((r1 - r0) * k);
    gemm_abt(r1 - r0, k, d, x + r0 * d, d, centroids, d, dots.data(), k);
    for (size_t r = r0; r < r1; ++r) {
      const float* row = dots.data() + (r - r0) * k;
      int64_t best = 0;
      float best_score;
      if (inner_product) {
        best_score = row[0];
        for (size_t c = 1; c < k; ++c) {
          if (row[c] > best_score) best_score = row[c], best = static_cast<int64_t>(c);
        }
      } else {
        float x_norm = 0;
        for (size_t j = 0; j < d; ++j) x_norm += x[r * d + j] * x[r * d + j];
        best_score = x_norm + centroid_norms[0] - 2 * row[0];
        for (size_t c = 1; c < k; ++c) {
          float dist = x_norm + centroid_norms[c] - 2 * row[c];
          if (dist < best_score) best_score = dist, best = static_cast<int64_t>(c);
        }
        best_score = std::max(best_score, 0.0f);
      }
      labels[r] = best;
      if (score) score[r] = best_score;
    }
  });
}

}  // namespace winnow
