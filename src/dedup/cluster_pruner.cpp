#include "dedup/cluster_pruner.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "dedup/prune_tile.h"

namespace winnow {

PruneResult prune_cluster(const float* x, size_t n, size_t d, const PruneOptions& options) {
  PruneResult out;
  out.max_similarity.assign(n, 0.0f);
  out.matched.resize(n);
  out.removed.assign(n, 0);
  const size_t block = std::max<size_t>(options.block, 1);
  // One column block: every earlier row block in ascending order, then its own diagonal
  // block (dedup/prune_tile.h). Blocks write disjoint rows of `out`.
  auto do_block = [&](size_t c0, std::vector<float>& products) {
    const size_t c1 = std::min(n, c0 + block);
    PruneTile tile(c0, c1, x + c0 * d, d, options, out);
    for (size_t r0 = 0; r0 < c0; r0 += block) tile.absorb(x + r0 * d, r0, r0 + block, products);
    tile.absorb(x + c0 * d, c0, c1, products);
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
