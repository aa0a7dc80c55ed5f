#include "dedup/semantic_clustering.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>

#include "core/hash.h"
#include "dedup/semantic_device.h"
#include "dist/comm.h"

namespace winnow {

namespace {

// The fit's rows and their keys (this rank's): every item, or a seeded draw by key (the same
// items for any input order or rank count); when the draw is empty on every rank, every item.
const float* fit_rows(const MappedMatrix& matrix, const std::vector<SemanticItem>& items,
                      const SemanticOptions& options, std::vector<float>& sample,
                      std::vector<uint64_t>& keys, dist::Comm& comm) {
  const size_t n = items.size(), d = matrix.dims();
  keys.clear();
  if (options.sample_fraction < 1.0) {
    for (size_t r = 0; r < n; ++r) {
      if (unit_interval(hash_u64(items[r].key, options.seed ^ 0x5eed)) < options.sample_fraction) {
        sample.insert(sample.end(), matrix.row(r), matrix.row(r) + d);
        keys.push_back(items[r].key);
      }
    }
    const auto totals = dist::sum_over_ranks(comm, {keys.size(), n});
    if (totals[0] > 0 || totals[1] == 0) return sample.data();
    std::vector<float>().swap(sample);
    keys.clear();
  }
  // All items (or too small a fraction of too few items: fit on them all).
  for (const SemanticItem& item : items) keys.push_back(item.key);
  return matrix.data();
}

// The sum over every rank's `terms` (non-negative), exactly: each term in fixed point at a
// scale agreed from the largest term (2^-62 of it and finer), summed in 128-bit integers, so
// the sum is the same for any division of the terms between ranks and any order.
double exact_sum_over_ranks(dist::Comm& comm, const std::vector<double>& terms) {
  double largest = 0;
  for (double t : terms) largest = std::max(largest, t);
  if (comm.size() > 1) {
    for (const std::string& part : comm.all_gather(
             std::string(reinterpret_cast<const char*>(&largest), sizeof largest))) {
      double v;
      std::memcpy(&v, part.data(), sizeof v);
      largest = std::max(largest, v);
    }
  }
  if (!(largest > 0) || !std::isfinite(largest)) return largest;
  int e = 0;
  std::frexp(largest, &e);  // largest < 2^e
  const int exponent = 62 - e;
  __int128 sum = 0;
  for (double t : terms) sum += static_cast<__int128>(std::nearbyint(std::ldexp(t, exponent)));
  if (comm.size() > 1) {
    __int128 total = 0;
    for (const std::string& part :
         comm.all_gather(std::string(reinterpret_cast<const char*>(&sum), sizeof sum))) {
      __int128 v;
      std::memcpy(&v, part.data(), sizeof v);
      total += v;
    }
    sum = total;
  }
  return std::ldexp(static_cast<double>(sum), -exponent);
}

// Inertia, cluster sizes and each item's rank value, from the assignment, in double; the
// inertia and sizes summed over the ranks.
void measure_assignment(const MappedMatrix& matrix, std::vector<SemanticItem>& items,
                        const SemanticOptions& options, SemanticClustering& out,
                        dist::Comm& comm) {
  const size_t d = matrix.dims(), k = out.fit.clusters;
  const std::vector<float>& centroids = out.fit.centroids;
  std::vector<double> centroid_norm(k, 0);
  for (size_t c = 0; c < k; ++c) {
    for (size_t j = 0; j < d; ++j) centroid_norm[c] += double{centroids[c * d + j]} * centroids[c * d + j];
    centroid_norm[c] = std::sqrt(centroid_norm[c]);
  }
  out.sizes.assign(k, 0);
  std::vector<double> distances(items.size());
  for (size_t r = 0; r < items.size(); ++r) {
    const float* x = matrix.row(r);
    const float* c = centroids.data() + out.labels[r] * d;
    double dot = 0, dist = 0;
    for (size_t j = 0; j < d; ++j) {
      dot += double{x[j]} * c[j];
      dist += (double{x[j]} - c[j]) * (double{x[j]} - c[j]);
    }
    distances[r] = dist;
    ++out.sizes[out.labels[r]];
    const double norm = centroid_norm[out.labels[r]];
    switch (options.ranking) {
      case SemanticRanking::kHard:
      case SemanticRanking::kEasy:
        items[r].rank_value = 1.0 - (norm > 0 ? dot / norm : 0.0);
        break;
      case SemanticRanking::kRandom:
        items[r].rank_value = unit_interval(hash_u64(items[r].key, options.seed));
        break;
      case SemanticRanking::kField:
        break;  // read from the record
    }
  }
  out.inertia = exact_sum_over_ranks(comm, distances);
  out.sizes = dist::sum_over_ranks(comm, out.sizes);
}

}  // namespace

Result<SemanticClustering> cluster_items(const MappedMatrix& matrix,
                                         std::vector<SemanticItem>& items,
                                         const SemanticOptions& options, int threads,
                                         dist::Comm& comm) {
  SemanticClustering out;
  const size_t n = items.size(), d = matrix.dims();
  std::vector<float> sample;
  std::vector<uint64_t> keys;
  const float* rows = fit_rows(matrix, items, options, sample, keys, comm);
  const auto totals = dist::sum_over_ranks(comm, {keys.size(), n});
  out.sampled = static_cast<size_t>(totals[0]);
  out.items = static_cast<size_t>(totals[1]);
  out.labels.assign(n, 0);
  if (out.items > 0) {
    KMeansOptions km;
    km.clusters = std::min(options.n_clusters, out.sampled);
    km.max_iter = options.max_iter;
    km.tol = options.tol;
    km.seed = options.seed;
    km.spherical = options.spherical;
    km.max_points_per_centroid = options.max_points_per_centroid;
    km.threads = threads;
    km.device = options.device;
    auto trained = train_kmeans_divided(comm, rows, keys.data(), keys.size(), d, km);
    if (!trained.is_ok()) {
      return Status::errorf("stage '{}': {}", options.stage_label, trained.status().message());
    }
    out.fit = std::move(trained).value();
    std::vector<float>().swap(sample);
    std::vector<float> scores(n);
    assign_nearest_anywhere(options.device, matrix.data(), n, d, out.fit.centroids.data(),
                            out.fit.clusters, km.spherical, threads, out.labels.data(),
                            scores.data());
  }
  measure_assignment(matrix, items, options, out, comm);
  return out;
}

void rank_members(const std::vector<ClusterMember>& members, std::vector<uint32_t>& order,
                  SemanticRanking ranking) {
  order.resize(members.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const ClusterMember& x = members[a];
    const ClusterMember& y = members[b];
    switch (ranking) {
      case SemanticRanking::kHard:  // farthest from the centroid first; ties: larger key
        if (x.rank_value != y.rank_value) return x.rank_value > y.rank_value;
        return x.key > y.key;
      case SemanticRanking::kEasy:  // nearest first; ties: smaller key
      case SemanticRanking::kRandom:
        if (x.rank_value != y.rank_value) return x.rank_value < y.rank_value;
        return x.key < y.key;
      case SemanticRanking::kField: {  // highest first, items without a value last
        bool xn = std::isnan(x.rank_value), yn = std::isnan(y.rank_value);
        if (xn != yn) return yn;
        if (!xn && x.rank_value != y.rank_value) return x.rank_value > y.rank_value;
        return x.key < y.key;
      }
    }
    return x.key < y.key;
  });
}

Status spill_ranked_clusters(const SemanticClustering& clustering,
                             const std::vector<SemanticItem>& items, const MappedMatrix& matrix,
                             SemanticRanking ranking, ClusterSpill& spill) {
  const size_t k = clustering.fit.clusters;
  std::vector<std::vector<uint32_t>> members_of(k);
  for (size_t r = 0; r < items.size(); ++r) {
    members_of[clustering.labels[r]].push_back(static_cast<uint32_t>(r));
  }
  std::vector<ClusterMember> members, ranked;
  std::vector<uint32_t> order, rows;
  for (size_t c = 0; c < k; ++c) {
    if (members_of[c].empty()) continue;
    members.clear();
    for (uint32_t r : members_of[c]) {
      members.push_back({items[r].key, items[r].rank_value, items[r].id, items[r].excerpt});
    }
    rank_members(members, order, ranking);
    ranked.clear();
    rows.clear();
    for (uint32_t i : order) {
      ranked.push_back(std::move(members[i]));
      rows.push_back(members_of[c][i]);
    }
    WINNOW_RETURN_IF_ERROR(spill.write(static_cast<uint32_t>(c), ranked, matrix.data(), rows));
    std::vector<uint32_t>().swap(members_of[c]);
  }
  return spill.close();
}

}  // namespace winnow
