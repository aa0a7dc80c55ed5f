// assign_nearest (dedup/kmeans.h), apart from the training: the CPU reference the GPU
// assignment is tested against, which the GPU-only build (cmake/gpu_only.cmake) compiles alone.
//
// Near ties. The products are float sgemm, whose rounding depends on how the library blocks
// and orders the sums (OpenBLAS's kernel, cuBLAS, FMA or not). Whatever the order, a float dot
// product of length d is within gamma_d * |x| * |c| of the exact one (gamma_d = d u / (1 - d u),
// u = 2^-24; Cauchy-Schwarz bounds the sum of |x_j c_j|). So every centroid whose float score
// is within twice that bound of the best could be the exact best; when there are several,
// they are compared again by a fixed-order double sum, ties to the smaller index, and the row's
// score is always that double value rounded to float. Labels and scores are then a function of
// the inputs alone, not of the BLAS, its blocking or the device that computed the products.
#include <algorithm>
#include <atomic>
#include <cmath>
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

// gamma_d of a float dot product of length d (the +2 covers the L2 form's norms and sums).
double float_product_error(size_t d) {
  const double du = double(d + 2) * 0x1p-24;
  return du / (1 - du);
}

// Fixed-order double sums: the same value on every machine and for every blocking.
double dot_in_double(const float* a, const float* b, size_t d) {
  double s = 0;
  for (size_t j = 0; j < d; ++j) s += double{a[j]} * b[j];
  return s;
}
double distance_in_double(const float* a, const float* b, size_t d) {
  double s = 0;
  for (size_t j = 0; j < d; ++j) {
    double diff = double{a[j]} - b[j];
    s += diff * diff;
  }
  return s;
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
  std::vector<float> centroid_norms(k);  // squared, float: the L2 form of the products
  double largest_norm = 0;
  for (size_t c = 0; c < k; ++c) {
    float s = 0;
    for (size_t j = 0; j < d; ++j) s += centroids[c * d + j] * centroids[c * d + j];
    centroid_norms[c] = s;
    largest_norm = std::max(largest_norm, std::sqrt(dot_in_double(centroids + c * d,
                                                                   centroids + c * d, d)));
  }
  const double gamma = float_product_error(d);
  const size_t rows = block_rows(k);
  run_blocks((n + rows - 1) / rows, threads, [&](size_t b) {
    const size_t r0 = b * rows, r1 = std::min(n, r0 + rows);
    std::vector<float> dots((r1 - r0) * k);
    std::vector<float> scores(k);
    gemm_abt(r1 - r0, k, d, x + r0 * d, d, centroids, d, dots.data(), k);
    for (size_t r = r0; r < r1; ++r) {
      const float* xr = x + r * d;
      const float* row = dots.data() + (r - r0) * k;
      // Higher is better: the inner product, or the negated squared distance.
      if (inner_product) {
        std::copy(row, row + k, scores.begin());
      } else {
        float x_norm = 0;
        for (size_t j = 0; j < d; ++j) x_norm += xr[j] * xr[j];
        for (size_t c = 0; c < k; ++c) scores[c] = -(x_norm + centroid_norms[c] - 2 * row[c]);
      }
      int64_t best = 0;
      for (size_t c = 1; c < k; ++c) {
        if (scores[c] > scores[best]) best = static_cast<int64_t>(c);
      }
      if (std::isnan(scores[best])) {  // a NaN row: centroid 0, as faiss and the GPU give it
        labels[r] = 0;
        if (score) score[r] = scores[0];
        continue;
      }
      // The float error bound for this row, and a little more so that a centroid left out is
      // below the best by more than the double sums' own error.
      const double x_length = std::sqrt(dot_in_double(xr, xr, d));
      const double scale = inner_product ? x_length * largest_norm
                                         : (x_length + largest_norm) * (x_length + largest_norm);
      const double margin = (2 * gamma + 1e-9) * scale;
      const double floor = double{scores[best]} - margin;
      size_t candidates = 0;
      for (size_t c = 0; c < k && candidates < 2; ++c) candidates += scores[c] >= floor;
      auto exact = [&](size_t c) {
        const float* centroid = centroids + c * d;
        return inner_product ? dot_in_double(xr, centroid, d)
                             : -distance_in_double(xr, centroid, d);
      };
      double best_exact = exact(static_cast<size_t>(best));
      if (candidates > 1) {
        best = -1;
        for (size_t c = 0; c < k; ++c) {
          if (scores[c] < floor) continue;
          double e = exact(c);
          if (best < 0 || e > best_exact) best = static_cast<int64_t>(c), best_exact = e;
        }
      }
      labels[r] = best;
      if (score) score[r] = static_cast<float>(inner_product ? best_exact : -best_exact);
    }
  });
}

}  // namespace winnow
