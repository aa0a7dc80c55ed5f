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
#include <cmath>
#include <vector>

#include "dedup/blas_gemm.h"
#include "dedup/double_products.h"
#include "dedup/kmeans.h"
#include "dedup/parallel_blocks.h"

namespace winnow {

namespace {

// Rows per product block: fixed by the number of centroids alone (about 4 MB of products per
// block), never by the thread count.
size_t block_rows(size_t k) {
  return std::clamp<size_t>((size_t{1} << 20) / std::max<size_t>(k, 1), 16, 4096);
}

}  // namespace

NearestCentroid::NearestCentroid(const float* centroids, size_t k, size_t d, bool inner_product)
    : centroids_(centroids), k_(k), d_(d), inner_product_(inner_product),
      gamma_(float_product_error(d)), norms_(k) {
  for (size_t c = 0; c < k; ++c) {
    float s = 0;
    for (size_t j = 0; j < d; ++j) s += centroids[c * d + j] * centroids[c * d + j];
    norms_[c] = s;
    largest_norm_ = std::max(largest_norm_, length_in_double(centroids + c * d, d));
  }
}

double NearestCentroid::margin(const float* xr) const {
  // The float error bound for this row, and a little more so that a centroid left out is below
  // the best by more than the double sums' own error.
  const double x_length = length_in_double(xr, d_);
  const double scale = inner_product_ ? x_length * largest_norm_
                                      : (x_length + largest_norm_) * (x_length + largest_norm_);
  return (2 * gamma_ + 1e-9) * scale;
}

double NearestCentroid::exact(const float* xr, size_t c) const {
  const float* centroid = centroids_ + c * d_;
  return inner_product_ ? dot_in_double(xr, centroid, d_) : -distance_in_double(xr, centroid, d_);
}

void NearestCentroid::scores_from_products(const float* xr, const float* products,
                                           float* scores) const {
  // Higher is better: the inner product, or the negated squared distance.
  if (inner_product_) {
    std::copy(products, products + k_, scores);
    return;
  }
  float x_norm = 0;
  for (size_t j = 0; j < d_; ++j) x_norm += xr[j] * xr[j];
  for (size_t c = 0; c < k_; ++c) scores[c] = -(x_norm + norms_[c] - 2 * products[c]);
}

void NearestCentroid::decide(const float* xr, const float* scores, int64_t& label,
                             float& score) const {
  int64_t best = 0;
  for (size_t c = 1; c < k_; ++c) {
    if (scores[c] > scores[best]) best = static_cast<int64_t>(c);
  }
  if (std::isnan(scores[best])) {  // a NaN row: centroid 0, as faiss and the GPU give it
    label = 0;
    score = scores[0];
    return;
  }
  const double floor = double{scores[best]} - margin(xr);
  size_t candidates = 0;
  for (size_t c = 0; c < k_ && candidates < 2; ++c) candidates += scores[c] >= floor;
  double best_exact = exact(xr, static_cast<size_t>(best));
  if (candidates > 1) {
    best = -1;
    for (size_t c = 0; c < k_; ++c) {
      if (scores[c] < floor) continue;
      double e = exact(xr, c);
      if (best < 0 || e > best_exact) best = static_cast<int64_t>(c), best_exact = e;
    }
  }
  label = best;
  score = static_cast<float>(inner_product_ ? best_exact : -best_exact);
}

void NearestCentroid::decide_from_top_two(const float* xr, int64_t best, float best_score,
                                          float second_score, int64_t& label,
                                          float& score) const {
  // Scores in the products' own sense: higher inner products, lower distances are better.
  const double best_high = inner_product_ ? best_score : -double{best_score};
  const double second_high = inner_product_ ? second_score : -double{second_score};
  if (std::isnan(best_high)) {
    label = 0;
    score = best_score;
    return;
  }
  if (k_ == 1 || std::isnan(second_high) || second_high < best_high - margin(xr)) {
    // Every other centroid is below the best by more than the error: the best is the exact
    // best, as decide() would find it from any products.
    const double e = exact(xr, static_cast<size_t>(best));
    label = best;
    score = static_cast<float>(inner_product_ ? e : -e);
    return;
  }
  // A near tie: this row's products again on the host, and decide()'s rule over them.
  std::vector<float> products(k_), scores(k_);
  gemm_abt(1, k_, d_, xr, d_, centroids_, d_, products.data(), k_);
  scores_from_products(xr, products.data(), scores.data());
  decide(xr, scores.data(), label, score);
}

void assign_nearest(const float* x, size_t n, size_t d, const float* centroids, size_t k,
                    bool inner_product, int threads, int64_t* labels, float* score) {
  const NearestCentroid nearest(centroids, k, d, inner_product);
  const size_t rows = block_rows(k);
  run_blocks((n + rows - 1) / rows, threads, [&](size_t b) {
    const size_t r0 = b * rows, r1 = std::min(n, r0 + rows);
    std::vector<float> dots((r1 - r0) * k);
    std::vector<float> scores(k);
    gemm_abt(r1 - r0, k, d, x + r0 * d, d, centroids, d, dots.data(), k);
    for (size_t r = r0; r < r1; ++r) {
      float s;
      nearest.scores_from_products(x + r * d, dots.data() + (r - r0) * k, scores.data());
      nearest.decide(x + r * d, scores.data(), labels[r], s);
      if (score) score[r] = s;
    }
  });
}

}  // namespace winnow
