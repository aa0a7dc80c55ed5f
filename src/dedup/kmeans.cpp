#include "dedup/kmeans.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/hash.h"
#include "dedup/centroid_sums.h"

namespace winnow {

namespace {

constexpr uint64_t kSampleSeed = 0x6b6d65616e73ull;  // the cap's draw, apart from the start's

// A row's draw: the seeded hash of its key, ties (never in practice) by key.
struct Draw {
  uint64_t hash;
  uint64_t key;
  size_t row;
  bool operator<(const Draw& o) const { return hash != o.hash ? hash < o.hash : key < o.key; }
};

// The `count` rows of smallest draw, in draw order: a seeded choice that depends on the keys
// only, not on the rows' order or on which process holds them.
std::vector<size_t> smallest_draws(const uint64_t* keys, size_t n, size_t count, uint64_t seed) {
  std::vector<Draw> draws(n);
  for (size_t r = 0; r < n; ++r) {
    const uint64_t key = keys ? keys[r] : r;
    draws[r] = {hash_u64(key, seed), key, r};
  }
  count = std::min(count, n);
  std::nth_element(draws.begin(), draws.begin() + static_cast<std::ptrdiff_t>(count), draws.end());
  draws.resize(count);
  std::sort(draws.begin(), draws.end());
  std::vector<size_t> rows(count);
  for (size_t i = 0; i < count; ++i) rows[i] = draws[i].row;
  return rows;
}

bool all_finite(const float* x, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(x[i])) return false;
  }
  return true;
}

}  // namespace

Result<KMeansResult> train_kmeans(const float* x, const uint64_t* keys, size_t n, size_t d,
                                  const KMeansOptions& options) {
  const size_t k = options.clusters;
  if (k < 1 || n < k) return Status::errorf("k-means: {} points cannot make {} clusters", n, k);
  if (!all_finite(x, n * d)) return Status::error("k-means: an embedding holds NaN or infinity");
  KMeansResult result;
  result.clusters = k;
  // The training rows: all, or the k x max_points_per_centroid of smallest draw.
  std::vector<float> sample;
  std::vector<size_t> sampled_rows;
  const float* rows = x;
  size_t m = n;
  const size_t cap = k * std::max<size_t>(options.max_points_per_centroid, 1);
  if (n > cap) {
    sampled_rows = smallest_draws(keys, n, cap, options.seed ^ kSampleSeed);
    std::sort(sampled_rows.begin(), sampled_rows.end());  // the input's order
    sample.resize(cap * d);
    for (size_t i = 0; i < cap; ++i) {
      std::copy(x + sampled_rows[i] * d, x + (sampled_rows[i] + 1) * d, sample.data() + i * d);
    }
    rows = sample.data();
    m = cap;
  }
  result.trained_on = m;
  // Initial centroids: the k training rows of smallest draw.
  std::vector<uint64_t> train_keys(m);
  for (size_t i = 0; i < m; ++i) {
    const size_t r = sample.empty() ? i : sampled_rows[i];
    train_keys[i] = keys ? keys[r] : r;
  }
  result.centroids.resize(k * d);
  std::vector<size_t> initial = smallest_draws(train_keys.data(), m, k, options.seed);
  for (size_t i = 0; i < k; ++i) {
    std::copy(rows + initial[i] * d, rows + (initial[i] + 1) * d, result.centroids.data() + i * d);
  }
  const CentroidScale scale = centroid_scale(rows, m * d);
  std::vector<int64_t> labels(m);
  std::vector<float> scores(m);
  for (int iteration = 0; iteration < std::max(options.max_iter, 1); ++iteration) {
    assign_nearest(rows, m, d, result.centroids.data(), k, options.spherical, options.threads,
                   labels.data(), scores.data());
    CentroidSums sums(k, d, scale);
    sums.add(rows, m, labels.data(), scores.data());
    const double objective = sums.objective();
    result.objective.push_back(objective);
    result.iterations = iteration + 1;
    sums.update(result.centroids, options.spherical);
    if (iteration > 0) {
      const double previous = result.objective[result.objective.size() - 2];
      if (std::abs(previous - objective) <= options.tol * std::max(std::abs(objective), 1e-30)) {
        break;
      }
    }
  }
  return result;
}

}  // namespace winnow
