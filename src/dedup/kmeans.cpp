#include "dedup/kmeans.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <numeric>

#include "core/hash.h"
#include "dedup/centroid_sums.h"
#include "dedup/semantic_device.h"
#include "dist/comm.h"

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

void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

uint64_t get_u64(const char* at) {
  uint64_t v;
  std::memcpy(&v, at, sizeof v);
  return v;
}

// Of this rank's n rows, those whose draw is among the `count` smallest over every rank's rows,
// in row order. Each rank's `count` smallest draws hold the global ones, so only those draws
// (16 bytes each) are gathered.
std::vector<size_t> globally_smallest(dist::Comm& comm, const uint64_t* keys, size_t n,
                                      size_t count, uint64_t seed) {
  std::vector<size_t> local = smallest_draws(keys, n, count, seed);
  if (comm.size() > 1) {
    std::string mine;
    for (size_t r : local) {
      put_u64(mine, hash_u64(keys[r], seed));
      put_u64(mine, keys[r]);
    }
    std::vector<Draw> all;
    for (const std::string& part : comm.all_gather(mine)) {
      for (size_t at = 0; at + 16 <= part.size(); at += 16) {
        all.push_back({get_u64(part.data() + at), get_u64(part.data() + at + 8), 0});
      }
    }
    if (all.size() > count && count > 0) {
      std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(count - 1),
                       all.end());
      const Draw last = all[count - 1];
      std::vector<size_t> kept;
      for (size_t r : local) {
        if (!(last < Draw{hash_u64(keys[r], seed), keys[r], 0})) kept.push_back(r);
      }
      local = std::move(kept);
    }
  }
  std::sort(local.begin(), local.end());
  return local;
}

// The k rows of smallest draw over every rank's m rows, in draw order, into `centroids`
// (k x d): each rank sends its own k smallest with their rows.
void initial_centroids(dist::Comm& comm, const float* rows, const uint64_t* keys, size_t m,
                       size_t d, size_t k, uint64_t seed, std::vector<float>& centroids) {
  std::vector<size_t> local = smallest_draws(keys, m, k, seed);
  centroids.assign(k * d, 0);
  if (comm.size() == 1) {
    for (size_t i = 0; i < local.size(); ++i) {
      std::copy(rows + local[i] * d, rows + (local[i] + 1) * d, centroids.data() + i * d);
    }
    return;
  }
  std::string mine;
  for (size_t r : local) {
    put_u64(mine, hash_u64(keys[r], seed));
    put_u64(mine, keys[r]);
    mine.append(reinterpret_cast<const char*>(rows + r * d), d * sizeof(float));
  }
  const size_t record = 16 + d * sizeof(float);
  std::vector<std::string> parts = comm.all_gather(mine);
  std::vector<std::pair<Draw, const char*>> all;
  for (const std::string& part : parts) {
    for (size_t at = 0; at + record <= part.size(); at += record) {
      all.push_back({{get_u64(part.data() + at), get_u64(part.data() + at + 8), 0},
                     part.data() + at + 16});
    }
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < k && i < all.size(); ++i) {
    std::memcpy(centroids.data() + i * d, all[i].second, d * sizeof(float));
  }
}

// The scale of the data of every rank: from the largest magnitude, a maximum (exact in any
// order).
CentroidScale scale_over_ranks(dist::Comm& comm, const float* x, size_t count) {
  float largest = 0;
  for (size_t i = 0; i < count; ++i) largest = std::max(largest, std::abs(x[i]));
  if (comm.size() > 1) {
    std::string mine(reinterpret_cast<const char*>(&largest), sizeof largest);
    for (const std::string& part : comm.all_gather(mine)) {
      float v;
      std::memcpy(&v, part.data(), sizeof v);
      largest = std::max(largest, v);
    }
  }
  return centroid_scale_for(largest);
}

// This rank's sums merged with every other rank's, in rank order (exact: any order would do).
Status merge_over_ranks(dist::Comm& comm, CentroidSums& sums, size_t k, size_t d,
                        CentroidScale scale) {
  if (comm.size() == 1) return Status::ok();
  std::vector<std::string> parts = comm.all_gather(sums.bytes());
  CentroidSums all(k, d, scale);
  for (const std::string& part : parts) {
    if (!all.merge_bytes(part)) return Status::error("k-means: centroid sums arrived cut short");
  }
  sums = std::move(all);
  return Status::ok();
}

}  // namespace

Result<KMeansResult> train_kmeans(const float* x, const uint64_t* keys, size_t n, size_t d,
                                  const KMeansOptions& options) {
  std::vector<uint64_t> indices;
  if (!keys) {
    indices.resize(n);
    std::iota(indices.begin(), indices.end(), uint64_t{0});
    keys = indices.data();
  }
  return train_kmeans_divided(dist::local_comm(), x, keys, n, d, options);
}

Result<KMeansResult> train_kmeans_divided(dist::Comm& comm, const float* x, const uint64_t* keys,
                                          size_t n_local, size_t d, const KMeansOptions& options) {
  const size_t k = options.clusters;
  const size_t n = static_cast<size_t>(dist::sum_over_ranks(comm, {n_local})[0]);
  if (k < 1 || n < k) return Status::errorf("k-means: {} points cannot make {} clusters", n, k);
  WINNOW_RETURN_IF_ERROR(dist::agree(
      comm, all_finite(x, n_local * d) ? Status::ok()
                                       : Status::error("k-means: an embedding holds NaN or infinity")));
  KMeansResult result;
  result.clusters = k;
  // The training rows: all, or the k x max_points_per_centroid of smallest draw over all ranks.
  std::vector<float> sample;
  std::vector<size_t> sampled_rows;
  const float* rows = x;
  size_t m = n_local;
  const size_t cap = k * std::max<size_t>(options.max_points_per_centroid, 1);
  const bool capped = n > cap;
  if (capped) {
    sampled_rows = globally_smallest(comm, keys, n_local, cap, options.seed ^ kSampleSeed);
    m = sampled_rows.size();
    sample.resize(m * d);
    for (size_t i = 0; i < m; ++i) {
      std::copy(x + sampled_rows[i] * d, x + (sampled_rows[i] + 1) * d, sample.data() + i * d);
    }
    rows = sample.data();
  }
  result.trained_on = capped ? cap : n;
  // Initial centroids: the k training rows of smallest draw.
  std::vector<uint64_t> train_keys(m);
  for (size_t i = 0; i < m; ++i) train_keys[i] = keys[capped ? sampled_rows[i] : i];
  initial_centroids(comm, rows, train_keys.data(), m, d, k, options.seed, result.centroids);
  const CentroidScale scale = scale_over_ranks(comm, rows, m * d);
  std::vector<int64_t> labels(m);
  std::vector<float> scores(m);
  for (int iteration = 0; iteration < std::max(options.max_iter, 1); ++iteration) {
    assign_nearest_anywhere(options.device, rows, m, d, result.centroids.data(), k,
                            options.spherical, options.threads, labels.data(), scores.data());
    CentroidSums sums(k, d, scale);
    sums.add(rows, m, labels.data(), scores.data());
    WINNOW_RETURN_IF_ERROR(merge_over_ranks(comm, sums, k, d, scale));
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
