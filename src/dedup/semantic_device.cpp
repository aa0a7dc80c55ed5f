#include "dedup/semantic_device.h"

#include <algorithm>
#include <mutex>

#include "dedup/blas_gemm.h"
#include "dedup/double_products.h"
#include "dedup/kmeans.h"
#include "dedup/parallel_blocks.h"
#include "gpu/blas/gpu_similarity.h"
#include "gpu/gpu_runtime.h"

namespace winnow {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// One call on the device at a time: each call sizes its buffers to most of the free memory.
std::mutex device_calls;

// body(r) for every row, in chunks of 256 rows shared out to the threads.
void parallel_rows(size_t n, int threads, const auto& body) {
  constexpr size_t kChunk = 256;
  run_blocks((n + kChunk - 1) / kChunk, threads, [&](size_t c) {
    for (size_t r = c * kChunk; r < std::min(n, (c + 1) * kChunk); ++r) body(r);
  });
}

// Row j's exact best over every earlier row, as prune_tile.cpp's track_exact finds it: its
// float products again (this host's BLAS), and a double product for each row within the error
// of the best and of `threshold`. kNone when no row qualifies.
std::pair<double, uint32_t> exact_best_of_row(const float* x, size_t j, size_t d,
                                              const std::vector<double>& norms, double error,
                                              double threshold) {
  std::pair<double, uint32_t> best{0.0, kNone};
  if (j == 0) return best;
  std::vector<float> products(j);
  gemm_abt(1, j, d, x + j * d, d, x, d, products.data(), j);
  const double row_error = error * norms[j];
  double lower = 0;
  for (size_t i = 0; i < j; ++i) lower = std::max(lower, products[i] - row_error * norms[i]);
  const double floor = std::max(lower, threshold);
  for (size_t i = 0; i < j; ++i) {
    if (!(products[i] + row_error * norms[i] >= floor)) continue;
    const double e = dot_in_double(x + j * d, x + i * d, d);
    if (best.second == kNone || e > best.first) best = {e, static_cast<uint32_t>(i)};
  }
  return best;
}

}  // namespace

void settle_max_similarity(const float* x, size_t n, size_t d, const PruneOptions& options,
                           const std::vector<float>& best, const std::vector<uint32_t>& matched,
                           const std::vector<float>& second, PruneResult& out) {
  out.max_similarity.assign(n, 0.0f);
  out.matched.resize(n);
  out.removed.assign(n, 0);
  const double lowest = options.thresholds.empty()
                            ? 2.0
                            : *std::min_element(options.thresholds.begin(), options.thresholds.end());
  const double error = float_product_error(d) + 1e-9;
  std::vector<double> norms(n);
  double longest = 0;
  for (size_t j = 0; j < n; ++j) {
    norms[j] = length_in_double(x + j * d, d);
    longest = std::max(longest, norms[j]);
  }
  parallel_rows(n, options.threads, [&](size_t j) {
    const double bound = error * norms[j] * longest;  // any product of row j's error
    std::pair<double, uint32_t> exact{0.0, kNone};
    if (best[j] + bound >= lowest) {
      if (matched[j] != j && second[j] + bound < best[j] - bound) {
        // Every other earlier row is below the best by more than twice the error: the best is
        // the exact best.
        exact = {dot_in_double(x + j * d, x + size_t{matched[j]} * d, d), matched[j]};
      } else {
        exact = exact_best_of_row(x, j, d, norms, error, lowest);
      }
    }
    // As prune_tile.cpp decide_max: the exact best when it reaches the lowest threshold; any
    // other row is below every threshold above 0.
    const bool reaches = exact.second != kNone && exact.first >= lowest;
    const double value = reaches ? exact.first : 0.0;
    out.max_similarity[j] = reaches ? static_cast<float>(value) : best[j];
    out.matched[j] = reaches ? exact.second : matched[j];
    uint32_t bits = 0;
    for (size_t t = 0; t < options.thresholds.size(); ++t) {
      if (value >= options.thresholds[t]) bits |= uint32_t{1} << t;
    }
    out.removed[j] = bits;
  });
}

Result<PruneResult> prune_cluster_on_device(const SemanticDevice& device, const float* x, size_t n,
                                            size_t d, const PruneOptions& options) {
  if (options.keep_one_per_group) {
    return Status::error("keep_one_per_group decides in order: it runs on the CPU");
  }
  std::vector<float> best, second;
  std::vector<uint32_t> matched;
  {
    std::lock_guard lock(device_calls);
    WINNOW_RETURN_IF_ERROR(gpu::max_earlier_similarity(device.device, x, n, d, device.block, best,
                                                       matched, {}, nullptr, &second));
  }
  PruneResult out;
  settle_max_similarity(x, n, d, options, best, matched, second, out);
  return out;
}

Status assign_nearest_on_device(const SemanticDevice& device, const float* x, size_t n, size_t d,
                                const float* centroids, size_t k, bool inner_product, int threads,
                                int64_t* labels, float* score) {
  std::vector<int64_t> gpu_labels;
  std::vector<float> gpu_scores, seconds;
  {
    std::lock_guard lock(device_calls);
    WINNOW_RETURN_IF_ERROR(gpu::assign_nearest(device.device, x, n, d, centroids, k,
                                               inner_product, gpu_labels, gpu_scores, {}, nullptr,
                                               &seconds));
  }
  const NearestCentroid nearest(centroids, k, d, inner_product);
  parallel_rows(n, threads, [&](size_t r) {
    float s;
    nearest.decide_from_top_two(x + r * d, gpu_labels[r], gpu_scores[r], seconds[r], labels[r], s);
    if (score) score[r] = s;
  });
  return Status::ok();
}

PruneResult prune_cluster_anywhere(const SemanticDevice& device, const float* x, size_t n,
                                   size_t d, const PruneOptions& options) {
  if (device.device >= 0 && n >= device.min_rows && !options.keep_one_per_group) {
    auto on_device = prune_cluster_on_device(device, x, n, d, options);
    if (on_device.is_ok()) return std::move(on_device).value();
    gpu::note_cpu_fallback("semantic_dedup's pruning", on_device.status().message());
  }
  return prune_cluster(x, n, d, options);
}

void assign_nearest_anywhere(const SemanticDevice& device, const float* x, size_t n, size_t d,
                             const float* centroids, size_t k, bool inner_product, int threads,
                             int64_t* labels, float* score) {
  if (device.device >= 0) {
    Status status = assign_nearest_on_device(device, x, n, d, centroids, k, inner_product, threads,
                                             labels, score);
    if (status.is_ok()) return;
    gpu::note_cpu_fallback("semantic_dedup's k-means assignment", status.message());
  }
  assign_nearest(x, n, d, centroids, k, inner_product, threads, labels, score);
}

}  // namespace winnow
