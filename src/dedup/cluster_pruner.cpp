#include "dedup/cluster_pruner.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "dedup/blas_gemm.h"

namespace winnow {

namespace {

// max(0, values[0..n)), in eight independent lanes so the compiler vectorises it (a single
// running maximum is a dependency chain it may not reorder).
float max_of(const float* values, size_t n) {
  float lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; ++k) lane[k] = lane[k] > values[i + k] ? lane[k] : values[i + k];
  }
  for (; i < n; ++i) lane[0] = lane[0] > values[i] ? lane[0] : values[i];
  float best = 0.0f;
  for (float v : lane) best = best > v ? best : v;
  return best;
}

}  // namespace

PruneResult prune_cluster(const float* x, size_t n, size_t d, const PruneOptions& options) {
  PruneResult out;
  out.max_similarity.assign(n, 0.0f);
  out.matched.resize(n);
  out.removed.assign(n, 0);
  const size_t block = std::max<size_t>(options.block, 1);
  const size_t levels = options.thresholds.size();
  const double lowest =
      levels == 0 ? 2.0 : *std::min_element(options.thresholds.begin(), options.thresholds.end());
  // One column block: its products against every row before its end, then each of its
  // rows' decision. Blocks write disjoint rows of `out`.
  auto do_block = [&](size_t c0, std::vector<float>& products) {
    const size_t c1 = std::min(n, c0 + block);
    // Row j - c0 holds row j's similarity to rows 0 .. c1-1 (only those before j are used).
    products.resize((c1 - c0) * c1);
    gemm_abt(c1 - c0, c1, d, x + c0 * d, d, x, d, products.data(), c1);
    for (size_t j = c0; j < c1; ++j) {
      const float* similarity = products.data() + (j - c0) * c1;
      if (!options.keep_one_per_group) {
        const float best = max_of(similarity, j);
        uint32_t best_row = static_cast<uint32_t>(j);
        // The matched row matters only for removed items: look for it only then.
        if (best > 0.0f && static_cast<double>(best) >= lowest) {
          best_row =
              static_cast<uint32_t>(std::find(similarity, similarity + j, best) - similarity);
        }
        out.max_similarity[j] = best;
        out.matched[j] = best_row;
        uint32_t bits = 0;
        for (size_t t = 0; t < levels; ++t) {
          if (static_cast<double>(best) >= options.thresholds[t]) bits |= uint32_t{1} << t;
        }
        out.removed[j] = bits;
        continue;
      }
      // Greedy: per threshold, only rows still kept at that threshold can remove this one.
      uint32_t bits = 0;
      for (size_t t = 0; t < levels; ++t) {
        const uint32_t mask = uint32_t{1} << t;
        float best = 0.0f;
        uint32_t best_row = static_cast<uint32_t>(j);
        for (size_t i = 0; i < j; ++i) {
          if (!(out.removed[i] & mask) && similarity[i] > best) {
            best = similarity[i], best_row = static_cast<uint32_t>(i);
          }
        }
        if (static_cast<double>(best) >= options.thresholds[t]) bits |= mask;
        if (t == 0) {
          out.max_similarity[j] = best;
          out.matched[j] = best_row;
        }
      }
      out.removed[j] = bits;
    }
  };
  const size_t blocks = (n + block - 1) / block;
  const int threads = options.keep_one_per_group ? 1 : std::max(1, options.threads);
  if (threads == 1 || blocks < 2) {
    std::vector<float> products;
    for (size_t b = 0; b < blocks; ++b) do_block(b * block, products);
    return out;
  }
  // NeMo's rule: blocks are independent; the last (largest) first, for balance.
  std::atomic<size_t> taken{0};
  auto work = [&] {
    std::vector<float> products;
    for (size_t t = taken++; t < blocks; t = taken++) do_block((blocks - 1 - t) * block, products);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min<int>(threads, static_cast<int>(blocks)); ++t)
    pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return out;
}

double prune_flops(size_t n, size_t d, size_t block) {
  double flops = 0;
  for (size_t c0 = 0; c0 < n; c0 += block) {
    const size_t c1 = std::min(n, c0 + block);
    flops += 2.0 * static_cast<double>(c1 - c0) * static_cast<double>(c1) * static_cast<double>(d);
  }
  return flops;
}

}  // namespace winnow
