// GPU kernels against their CPU path on the same data (bench/gpu_check.sh runs it):
//   minhash   fuzzy dedup's signatures + band keys at NeMo Curator's parameters (character
//             24-grams, 20 x 13 permutations) on 3 KB documents: docs/s on the CPU (one thread
//             and all cores) and on one GPU (copies included), and that every GPU signature
//             and key equals the CPU's.
//   kmeans    nearest-centroid assignment (1M x 384 rows against 10,000 centroids, inner
//             product): GPU TFLOP/s as a fraction of cuBLAS sgemm's rate measured in the same
//             run, and the CPU path's (dedup/kmeans.h, all cores) on a slice.
//   similarity within-cluster max cosine to earlier rows (a 32,768-row cluster of 384
//             floats, blocks of 1024; best of 3): the same fraction, against the CPU pruner
//             on a slice; then 32,768 and 131,072 rows in blocks of 1,024 and 4,096, to show
//             how the rate grows as the fixed costs weigh less.
// Without a device it prints the CPU figures and says why there are no GPU ones. Built by the
// GPU-only build (cmake/gpu_only.cmake), its CPU figures are no baseline: the products run on
// plain loops and MinHash on the scalar kernel (it says so); the equality checks hold all the same.
// Usage: build/bench/gpu_bench [DOCUMENTS=200000]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dedup/cluster_pruner.h"
#include "dedup/kmeans.h"
#include "dedup/minhash_signer.h"
#include "dedup/semantic_device.h"
#include "gpu/blas/gpu_similarity.h"
#include "gpu/gpu_minhasher.h"
#include "gpu/gpu_runtime.h"

using namespace winnow;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// 3 KB of English-like ASCII per document (the device's shingling path), deterministic.
std::vector<std::string> make_docs(size_t count) {
  static const char* kWords[] = {"the",    "data",  "model", "training", "of",      "a",
                                 "corpus", "token", "web",   "crawl",    "quality", "filter",
                                 "and",    "to",    "is",    "language", "large",   "dedup"};
  std::mt19937_64 random(42);
  std::vector<std::string> docs(count);
  for (std::string& doc : docs) {
    doc.reserve(3100);
    while (doc.size() < 3072) {
      doc += kWords[random() % 18];
      doc += random() % 12 == 0 ? ". " : " ";
      if (random() % 7 == 0) doc += std::to_string(random() % 1000);
    }
    doc.resize(3072);
  }
  return docs;
}

void cpu_sign(const MinHashSigner& signer, const std::vector<std::string>& docs, size_t begin,
              size_t end, std::vector<uint32_t>& signatures, std::vector<uint64_t>& keys) {
  const size_t k = static_cast<size_t>(signer.params().hashes());
  const size_t bands = static_cast<size_t>(signer.params().bands);
  std::vector<uint32_t> sig;
  for (size_t d = begin; d < end; ++d) {
    signer.sign(docs[d], sig);
    std::copy(sig.begin(), sig.end(), signatures.begin() + d * k);
    signer.band_keys(sig, keys.data() + d * bands);
  }
}

std::vector<float> random_unit_rows(size_t n, size_t d, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<float> normal;
  std::vector<float> x(n * d);
  for (size_t i = 0; i < n; ++i) {
    double norm = 0;
    for (size_t c = 0; c < d; ++c) {
      x[i * d + c] = normal(random);
      norm += double(x[i * d + c]) * x[i * d + c];
    }
    for (size_t c = 0; c < d; ++c)
      x[i * d + c] = static_cast<float>(x[i * d + c] / std::sqrt(norm));
  }
  return x;
}

// k-means assignment and the pruner's products, GPU against sgemm's peak and the CPU.
// The best of three timed max-earlier-similarity calls (copies in), or 0 after a failure.
double time_max_earlier(const float* x, size_t rows, size_t d, size_t block,
                        std::vector<float>& best, std::vector<uint32_t>& matched) {
  double fastest = 0;
  for (int round = 0; round < 3; ++round) {
    const auto start = std::chrono::steady_clock::now();
    Status status = gpu::max_earlier_similarity(0, x, rows, d, block, best, matched);
    const double seconds = seconds_since(start);
    if (!status.is_ok()) {
      fmt::print("  similarity        failed: {}\n", status.message());
      return 0;
    }
    fastest = round == 0 ? seconds : std::min(fastest, seconds);
  }
  return fastest;
}

int dense_products() {
  const size_t n = 1 << 20, d = 384, k = 10000;
  auto peak = gpu::sgemm_tflops(0, 8192, 8192, 384, 5);
  if (!peak.is_ok()) {
    fmt::print("  sgemm             failed: {}\n", peak.status().message());
    return 1;
  }
  fmt::print("cuBLAS sgemm (8192 x 8192 x 384, FP32): {:.1f} TFLOP/s\n", *peak);

  std::vector<float> x = random_unit_rows(n, d, 1);
  std::vector<float> centroids = random_unit_rows(k, d, 2);
  std::vector<int64_t> labels;
  std::vector<float> scores;
  (void)gpu::assign_nearest(0, x.data(), 4096, d, centroids.data(), k, true, labels, scores);
  auto start = std::chrono::steady_clock::now();
  Status status = gpu::assign_nearest(0, x.data(), n, d, centroids.data(), k, true, labels, scores);
  const double gpu_s = seconds_since(start);
  if (!status.is_ok()) {
    fmt::print("  kmeans            failed: {}\n", status.message());
    return 1;
  }
  const double flops = 2.0 * n * d * k;
#ifdef WINNOW_PORTABLE_GEMM
  // The GPU-only build's CPU products are plain loops (no OpenBLAS): a small slice checks the
  // labels; its rate is no baseline.
  const size_t slice = 1024;
#else
  const size_t slice = 16384;
#endif
  std::vector<int64_t> cpu_labels(slice);
  std::vector<float> cpu_scores(slice);
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  start = std::chrono::steady_clock::now();
  assign_nearest(x.data(), slice, d, centroids.data(), k, true, threads, cpu_labels.data(),
                 cpu_scores.data());
  const double cpu_tflops = 2.0 * slice * d * k / seconds_since(start) / 1e12;
  size_t same = 0;
  for (size_t i = 0; i < slice; ++i) same += labels[i] == cpu_labels[i];
  fmt::print("kmeans assignment ({} x {} against {} centroids):\n", n, d, k);
  fmt::print("  gpu               {:.1f} TFLOP/s = {:.0f}% of sgemm ({:.0f} rows/s, copies in)\n",
             flops / gpu_s / 1e12, 100 * flops / gpu_s / 1e12 / *peak, n / gpu_s);
  fmt::print("  cpu {:>2} threads    {:.3f} TFLOP/s ({:.0f}x slower)\n", threads, cpu_tflops,
             flops / gpu_s / 1e12 / cpu_tflops);
  fmt::print("  same labels       {} of {} (others tie within 1e-5)\n", same, slice);

  const size_t rows = 32768, block = 1024;
  std::vector<float> best;
  std::vector<uint32_t> matched;
  (void)gpu::max_earlier_similarity(0, x.data(), 2048, d, block, best, matched);
  const double sim_s = time_max_earlier(x.data(), rows, d, block, best, matched);
  if (sim_s <= 0) return 1;
  const double sim_flops = prune_flops(rows, d, block);
  PruneOptions options;
  options.block = block;
  options.thresholds = {0.9};
  options.threads = threads;
#ifdef WINNOW_PORTABLE_GEMM
  const size_t cpu_rows = 2048;  // plain loops, as above
#else
  const size_t cpu_rows = 8192;
#endif
  start = std::chrono::steady_clock::now();
  PruneResult cpu = prune_cluster(x.data(), cpu_rows, d, options);
  const double cpu_sim_tflops = prune_flops(cpu_rows, d, block) / seconds_since(start) / 1e12;
  double worst = 0;
  for (size_t i = 0; i < cpu_rows; ++i) {
    worst = std::max(worst, std::abs(double(best[i]) - cpu.max_similarity[i]));
  }
  fmt::print("max cosine to earlier rows ({} rows x {}, blocks of {}):\n", rows, d, block);
  fmt::print("  gpu               {:.1f} TFLOP/s = {:.0f}% of sgemm ({:.3f} s, copies in)\n",
             sim_flops / sim_s / 1e12, 100 * sim_flops / sim_s / 1e12 / *peak, sim_s);
  fmt::print("  cpu {:>2} threads    {:.3f} TFLOP/s\n", threads, cpu_sim_tflops);
  fmt::print("  gpu vs cpu        largest difference {:.2e} (within 1e-5: {})\n", worst,
             worst <= 1e-5 ? "yes" : "NO");
  // Larger clusters and blocks: how the rate grows once the fixed costs (copies, launches,
  // the fold of each block's maxima) weigh less.
  for (const auto& [sweep_rows, sweep_block] :
       {std::pair<size_t, size_t>{32768, 4096}, {131072, 1024}, {131072, 4096}}) {
    const double seconds = time_max_earlier(x.data(), sweep_rows, d, sweep_block, best, matched);
    if (seconds <= 0) return 1;
    const double tflops = prune_flops(sweep_rows, d, sweep_block) / seconds / 1e12;
    fmt::print("  gpu {:>6} rows, blocks of {}: {:.1f} TFLOP/s = {:.0f}% of sgemm ({:.3f} s)\n",
               sweep_rows, sweep_block, tflops, 100 * tflops / *peak, seconds);
  }
  return worst <= 1e-5 ? 0 : 1;
}

// Semantic dedup's decisions from the GPU's products, settled on the host
// (dedup/semantic_device.h), against the CPU path's: a cluster with planted exact and near
// copies, and an assignment. Prints the times and whether every decision is the same.
int semantic_decisions() {
  const size_t d = 384;
#ifdef WINNOW_PORTABLE_GEMM
  const size_t rows = 4096, assigned = 16384;  // plain-loop CPU products: a check, no baseline
#else
  const size_t rows = 32768, assigned = 262144;
#endif
  std::vector<float> x = random_unit_rows(std::max(rows, assigned), d, 4);
  std::mt19937_64 random(5);
  std::normal_distribution<float> normal;
  for (size_t i = 4; i < rows; i += 5) {  // every fifth row a copy (exact, or with noise)
    const size_t from = random() % i;
    const float noise = i % 10 == 9 ? 0.0f : 0.01f;
    double norm = 0;
    for (size_t c = 0; c < d; ++c) {
      x[i * d + c] = x[from * d + c] + noise * normal(random);
      norm += double(x[i * d + c]) * x[i * d + c];
    }
    for (size_t c = 0; c < d; ++c) x[i * d + c] = static_cast<float>(x[i * d + c] / std::sqrt(norm));
  }
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  PruneOptions options;
  options.block = 1024;
  options.thresholds = {0.99, 0.95, 0.9};
  options.threads = threads;
  auto start = std::chrono::steady_clock::now();
  const PruneResult cpu = prune_cluster(x.data(), rows, d, options);
  const double cpu_s = seconds_since(start);
  SemanticDevice device;
  device.device = 0;
  (void)prune_cluster_on_device(device, x.data(), 2048, d, options);  // warm-up
  start = std::chrono::steady_clock::now();
  auto settled = prune_cluster_on_device(device, x.data(), rows, d, options);
  const double gpu_s = seconds_since(start);
  if (!settled.is_ok()) {
    fmt::print("  semantic pruning  failed: {}\n", settled.status().message());
    return 1;
  }
  size_t differing = 0, removed = 0;
  for (size_t j = 0; j < rows; ++j) {
    removed += cpu.removed[j] & 1;
    differing += settled->removed[j] != cpu.removed[j] ||
                 (cpu.removed[j] != 0 && (settled->matched[j] != cpu.matched[j] ||
                                          settled->max_similarity[j] != cpu.max_similarity[j]));
  }
  fmt::print("semantic dedup's decisions, GPU products settled on the host vs the CPU path:\n");
  fmt::print("  pruning {} x {}   gpu {:.3f} s (blocks of {}, settling included), cpu {} threads "
             "{:.3f} s; {} removed at 0.99; identical: {}\n",
             rows, d, gpu_s, device.block, threads, cpu_s, removed,
             differing == 0 ? "yes" : fmt::format("NO ({} rows differ)", differing));
  const size_t k = 1000;
  std::vector<float> centroids = random_unit_rows(k, d, 6);
  for (size_t r = 0; r < assigned; r += 7) {  // rows on centroids: ties within the error
    std::copy(&centroids[(r % k) * d], &centroids[(r % k + 1) * d], &x[r * d]);
  }
  std::vector<int64_t> cpu_labels(assigned), labels(assigned);
  std::vector<float> cpu_scores(assigned), scores(assigned);
  start = std::chrono::steady_clock::now();
  assign_nearest(x.data(), assigned, d, centroids.data(), k, true, threads, cpu_labels.data(),
                 cpu_scores.data());
  const double cpu_assign_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  Status status = assign_nearest_on_device(device, x.data(), assigned, d, centroids.data(), k,
                                           true, threads, labels.data(), scores.data());
  const double gpu_assign_s = seconds_since(start);
  if (!status.is_ok()) {
    fmt::print("  assignment        failed: {}\n", status.message());
    return 1;
  }
  size_t assign_differing = 0;
  for (size_t r = 0; r < assigned; ++r) {
    assign_differing += labels[r] != cpu_labels[r] || scores[r] != cpu_scores[r];
  }
  fmt::print("  assignment {} x {} to {}: gpu {:.3f} s (settling included), cpu {:.3f} s; "
             "identical: {}\n",
             assigned, d, k, gpu_assign_s, cpu_assign_s,
             assign_differing == 0 ? "yes" : fmt::format("NO ({} rows differ)", assign_differing));
  return differing == 0 && assign_differing == 0 ? 0 : 1;
}

// Documents whose GPU signature or band keys are not the CPU's (all of them past the end of a
// short GPU result).
size_t documents_differing(const std::vector<uint32_t>& gpu_sigs,
                           const std::vector<uint64_t>& gpu_keys,
                           const std::vector<uint32_t>& cpu_sigs,
                           const std::vector<uint64_t>& cpu_keys, size_t k, size_t bands) {
  const size_t count = cpu_sigs.size() / k;
  size_t differing = 0;
  for (size_t d = 0; d < count; ++d) {
    const bool present = (d + 1) * k <= gpu_sigs.size() && (d + 1) * bands <= gpu_keys.size();
    differing += !present ||
                 !std::equal(cpu_sigs.begin() + d * k, cpu_sigs.begin() + (d + 1) * k,
                             gpu_sigs.begin() + d * k) ||
                 !std::equal(cpu_keys.begin() + d * bands, cpu_keys.begin() + (d + 1) * bands,
                             gpu_keys.begin() + d * bands);
  }
  return differing;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
#ifdef WINNOW_PORTABLE_GEMM
  fmt::print(
      "GPU-only build: the CPU figures below (scalar MinHash, plain-loop products) are "
      "checks, not baselines\n");
#endif
  MinHashParams params;  // NeMo: chars 24, 20 x 13, seed 42
  MinHashSigner signer(params);
  const size_t k = static_cast<size_t>(params.hashes());
  const size_t bands = static_cast<size_t>(params.bands);
  std::vector<std::string> docs = make_docs(count);
  fmt::print("minhash: {} documents of 3 KB, character 24-grams, {} x {} permutations\n", count,
             params.bands, params.rows);

  // CPU, one thread, on a slice (it is the slow side), then all cores on everything.
  std::vector<uint32_t> cpu_sigs(count * k);
  std::vector<uint64_t> cpu_keys(count * bands);
  const size_t slice = std::min<size_t>(count, 5000);
  auto start = std::chrono::steady_clock::now();
  cpu_sign(signer, docs, 0, slice, cpu_sigs, cpu_keys);
  const double one_thread = static_cast<double>(slice) / seconds_since(start);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  start = std::chrono::steady_clock::now();
  {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        cpu_sign(signer, docs, count * t / threads, count * (t + 1) / threads, cpu_sigs, cpu_keys);
      });
    }
    for (auto& thread : pool) thread.join();
  }
  const double all_cores = static_cast<double>(count) / seconds_since(start);
  fmt::print("  cpu 1 thread      {:>12.0f} docs/s\n", one_thread);
  fmt::print("  cpu {:>2} threads    {:>12.0f} docs/s\n", threads, all_cores);

  if (gpu::device_count() == 0) {
    fmt::print("  gpu               none: {}\n", gpu::unavailable_reason());
    return 0;
  }
  gpu::DeviceInfo info = gpu::device_info(0);
  gpu::GpuMinHashParams gp;
  gp.a = signer.permutation_a();
  gp.b = signer.permutation_b();
  gp.bands = params.bands;
  gp.rows = params.rows;
  gp.window = params.shingles.n;
  auto hasher = gpu::GpuMinHasher::create(gp);
  if (!hasher.is_ok()) {
    fmt::print("  gpu               failed: {}\n", hasher.status().message());
    return 1;
  }
  // Batches of 32,768 documents (96 MB of text): the copies of one chunk overlap the kernels
  // of the other inside each call.
  const size_t per_batch = 32768;
  std::vector<gpu::MinHashBatch> batches;
  for (size_t begin = 0; begin < count; begin += per_batch) {
    batches.emplace_back(gp.window);
    for (size_t d = begin; d < std::min(count, begin + per_batch); ++d) {
      if (!batches.back().add_text(docs[d])) {
        fmt::print("  gpu               document {} is shorter than one shingle\n", d);
        return 1;
      }
    }
  }
  std::vector<uint32_t> sigs, all_sigs;
  std::vector<uint64_t> keys, all_keys;
  (void)(*hasher)->run(batches.front(), sigs, keys);  // warm-up: buffers, module load
  double best = 0;
  for (int round = 0; round < 3; ++round) {  // the first round's results are the ones compared
    start = std::chrono::steady_clock::now();
    for (const gpu::MinHashBatch& batch : batches) {
      Status status = (*hasher)->run(batch, sigs, keys);
      if (!status.is_ok()) {
        fmt::print("  gpu               failed: {}\n", status.message());
        return 1;
      }
      if (round == 0) {
        all_sigs.insert(all_sigs.end(), sigs.begin(), sigs.end());
        all_keys.insert(all_keys.end(), keys.begin(), keys.end());
      }
    }
    best = std::max(best, static_cast<double>(count) / seconds_since(start));
  }
  const size_t differing = documents_differing(all_sigs, all_keys, cpu_sigs, cpu_keys, k, bands);
  fmt::print("  gpu {:<13} {:>12.0f} docs/s  ({:.1f}x all cores, {:.1f}x one thread)\n",
             info.name.substr(0, 13), best, best / all_cores, best / one_thread);
  if (differing == 0) {
    fmt::print("  gpu == cpu        yes (every signature and band key of {} documents)\n", count);
  } else {
    fmt::print("  gpu == cpu        NO: {} of {} documents differ\n", differing, count);
  }
  const bool equal = differing == 0;
  const int dense = dense_products();
  const int decisions = semantic_decisions();
  return equal && dense == 0 && decisions == 0 ? 0 : 1;
}
