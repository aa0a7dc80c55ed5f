// Semantic dedup's compute core, against baselines measured in the same run:
//   1. k-means: winnow's train_kmeans (Lloyd's with key-drawn sample and start, exact
//      fixed-point centroid sums, the blocked assignment) vs faiss's own Clustering + IndexFlatIP with the same settings (spherical,
//      seed, niter, max_points_per_centroid, tol 0 so both run every iteration), both with all
//      threads (faiss: OpenMP + OpenBLAS threads).
//   2. within-cluster pruning: the FLOP rate of prune_cluster (one thread, blocked sgemm +
//      running max) as a fraction of single-thread sgemm peak measured here on square products.
//   3. --full: N x D embeddings into K clusters: fit on the capped sample, assign all, prune
//      every cluster on all threads; wall time and peak RSS beyond the embeddings themselves.
// Data: seeded Gaussian blobs on the unit sphere (K_true directions, noise 0.3 per coordinate
// scale), so clusters are uneven as in real embeddings.
//   semantic_dedup_bench [--n 200000] [--d 128] [--k 100] [--iters 10] [--full]
#include <cblas.h>
#include <faiss/Clustering.h>
#include <faiss/IndexFlat.h>
#include <fmt/format.h>
#include <omp.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dedup/cluster_pruner.h"
#include "dedup/kmeans.h"

using namespace winnow;

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double peak_rss_mb() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

std::vector<float> make_data(size_t n, size_t d, size_t blobs, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<float> centres(blobs * d);
  for (float& v : centres) v = normal(rng);
  std::vector<float> x(n * d);
  const float noise = 0.3f;
  for (size_t i = 0; i < n; ++i) {
    // Zipf-like blob sizes: blob b with weight 1 / (b + 1).
    size_t b =
        static_cast<size_t>(std::pow(static_cast<double>(blobs), (rng() % 10000) / 10000.0)) - 1;
    double norm = 0;
    for (size_t j = 0; j < d; ++j) {
      float v = centres[b * d + j] + noise * std::sqrt(static_cast<float>(d)) * 0.2f * normal(rng);
      x[i * d + j] = v;
      norm += double{v} * v;
    }
    for (size_t j = 0; j < d; ++j)
      x[i * d + j] = static_cast<float>(x[i * d + j] / std::sqrt(norm));
  }
  return x;
}

double sgemm_peak_gflops(int threads) {
  const int m = 2048, n = 2048, k = 384;
  std::vector<float> a(size_t(m) * k, 0.5f), b(size_t(n) * k, 0.25f), c(size_t(m) * n);
  openblas_set_num_threads(threads);
  double best = 0;
  for (int rep = 0; rep < 3; ++rep) {
    double t0 = now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, a.data(), k, b.data(), k,
                0.0f, c.data(), n);
    best = std::max(best, 2.0 * m * n * k / (now() - t0) / 1e9);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  size_t n = 200000, d = 128, k = 100;
  int iters = 10;
  bool full = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return std::stoul(argv[++i]); };
    if (a == "--n")
      n = next();
    else if (a == "--d")
      d = next();
    else if (a == "--k")
      k = next();
    else if (a == "--iters")
      iters = static_cast<int>(next());
    else if (a == "--full")
      full = true;
  }
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  fmt::print("semantic_dedup_bench: n {} d {} k {} iterations {} threads {}\n", n, d, k, iters,
             threads);
  double t0 = now();
  std::vector<float> x = make_data(n, d, k, 1);
  fmt::print("data: {:.1f} s, {:.0f} MB of embeddings\n", now() - t0, x.size() * 4 / 1e6);
  const double rss_data = peak_rss_mb();

  // ---- 1. k-means vs faiss's own ----
  double faiss_s;
  {
    openblas_set_num_threads(threads);
    omp_set_num_threads(threads);
    faiss::ClusteringParameters cp;
    cp.niter = iters;
    cp.seed = 42;
    cp.spherical = true;
    cp.max_points_per_centroid = 256;
    cp.min_points_per_centroid = 0;
    faiss::Clustering clustering(static_cast<int>(d), static_cast<int>(k), cp);
    faiss::IndexFlatIP index(static_cast<int>(d));
    t0 = now();
    clustering.train(static_cast<faiss::Index::idx_t>(n), x.data(), index);
    faiss_s = now() - t0;
    fmt::print("faiss Clustering + IndexFlatIP: {:.2f} s, objective {:.6g}\n", faiss_s,
               clustering.iteration_stats.back().obj);
  }
  KMeansOptions o;
  o.clusters = k;
  o.max_iter = iters;
  o.tol = 0;
  o.seed = 42;
  o.threads = threads;
  t0 = now();
  auto fit = train_kmeans(x.data(), nullptr, n, d, o);
  const double ours_s = now() - t0;
  if (!fit.is_ok()) {
    fmt::print("k-means failed: {}\n", fit.status().message());
    return 1;
  }
  fmt::print("winnow train_kmeans:            {:.2f} s, objective {:.6g}  ({:.2f}x faiss)\n",
             ours_s, fit->objective.back(), ours_s / faiss_s);

  // ---- 2. pruning FLOP rate vs single-thread sgemm peak ----
  const double peak1 = sgemm_peak_gflops(1);
  {
    const size_t rows = std::min<size_t>(n, 8192);
    double flops = prune_flops(rows, d, 1024);
    PruneOptions po;
    po.thresholds = {0.99, 0.95};
    t0 = now();
    PruneResult r = prune_cluster(x.data(), rows, d, po);
    double s = now() - t0;
    fmt::print(
        "prune_cluster, one {}-row cluster, one thread: {:.2f} GFLOP/s; sgemm peak (2048x2048x384, "
        "one thread) {:.2f} GFLOP/s: {:.0f}% of peak\n",
        rows, flops / s / 1e9, peak1, 100 * flops / s / 1e9 / peak1);
    (void)r;
  }

  // ---- 3. the whole core at scale ----
  if (full) {
    std::vector<int64_t> labels(n);
    std::vector<float> score(n);
    t0 = now();
    assign_nearest(x.data(), n, d, fit->centroids.data(), k, true, threads, labels.data(),
                   score.data());
    const double assign_s = now() - t0;
    std::vector<std::vector<uint32_t>> members(k);
    for (size_t i = 0; i < n; ++i) members[labels[i]].push_back(static_cast<uint32_t>(i));
    std::atomic<size_t> next{0};
    std::atomic<uint64_t> removed{0};
    double flops = 0;
    for (auto& m : members) flops += prune_flops(m.size(), d, 1024);
    t0 = now();
    auto work = [&] {
      std::vector<float> rows;
      for (size_t c = next++; c < k; c = next++) {
        rows.resize(members[c].size() * d);
        for (size_t i = 0; i < members[c].size(); ++i) {
          std::memcpy(rows.data() + i * d, x.data() + size_t{members[c][i]} * d, d * 4);
        }
        PruneOptions po;
        po.thresholds = {0.99};
        PruneResult r = prune_cluster(rows.data(), members[c].size(), d, po);
        for (uint32_t bits : r.removed) removed += bits & 1;
      }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    const double prune_s = now() - t0;
    size_t largest = 0;
    for (auto& m : members) largest = std::max(largest, m.size());
    const double peak_all = sgemm_peak_gflops(threads);
    fmt::print(
        "full: fit {:.1f} s + assign {:.1f} s + prune {:.1f} s ({:.1f} GFLOP/s on {} threads, "
        "{:.0f}% of their sgemm peak {:.1f}; largest cluster {}) = {:.1f} s; {} removed at eps "
        "0.01\n",
        ours_s, assign_s, prune_s, flops / prune_s / 1e9, threads,
        100 * flops / prune_s / 1e9 / peak_all, peak_all, largest, ours_s + assign_s + prune_s,
        removed.load());
    fmt::print("peak RSS {:.0f} MB: {:.0f} MB beyond the data ({:.0f} MB of embeddings)\n",
               peak_rss_mb(), peak_rss_mb() - rss_data, x.size() * 4 / 1e6);
  }
  return 0;
}
