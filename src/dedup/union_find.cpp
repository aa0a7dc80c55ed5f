#include "dedup/union_find.h"

#include <algorithm>
#include <thread>

namespace winnow {

ConcurrentUnionFind::ConcurrentUnionFind(size_t n)
    : n_(n), parent_(std::make_unique<std::atomic<uint32_t>[]>(n)) {
  for (size_t i = 0; i < n; ++i) parent_[i].store(static_cast<uint32_t>(i));
}

uint32_t ConcurrentUnionFind::find(uint32_t x) {
  while (true) {
    uint32_t p = parent_[x].load(std::memory_order_acquire);
    if (p == x) return x;
    uint32_t g = parent_[p].load(std::memory_order_acquire);
    // Path halving: x may skip to its grandparent. A failed CAS only means someone else
    // shortened it already; any value stored is an ancestor, so the forest stays valid.
    if (p != g) parent_[x].compare_exchange_weak(p, g, std::memory_order_acq_rel);
    x = g;
  }
}

void ConcurrentUnionFind::unite(uint32_t a, uint32_t b) {
  while (true) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (a > b) std::swap(a, b);
    // Link the larger root under the smaller; fails if b stopped being a root meanwhile.
    uint32_t expected = b;
    if (parent_[b].compare_exchange_strong(expected, a, std::memory_order_acq_rel)) return;
  }
}

void ConcurrentUnionFind::unite_all(const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
                                    int threads) {
  threads = std::max(1, std::min<int>(threads, static_cast<int>(pairs.size() / 4096) + 1));
  auto work = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) unite(pairs[i].first, pairs[i].second);
  };
  std::vector<std::thread> pool;
  size_t chunk = (pairs.size() + threads - 1) / threads;
  for (int t = 1; t < threads; ++t) {
    size_t begin = std::min(pairs.size(), t * chunk);
    pool.emplace_back(work, begin, std::min(pairs.size(), begin + chunk));
  }
  work(0, std::min(pairs.size(), chunk));
  for (auto& t : pool) t.join();
}

}  // namespace winnow
