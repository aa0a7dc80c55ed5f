#pragma once
// ConcurrentUnionFind: connected components over dense indices 0..n-1, safe to unite from many
// threads at once (lock-free: a root is linked with a compare-and-swap, finds halve paths).
// A root is always linked under the smaller root, so every component's root is its smallest
// index whatever the order of the unions: with indices sorted by DocKey the component id is
// the smallest DocKey, independent of threads and arrival order.
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace winnow {

class ConcurrentUnionFind {
 public:
  explicit ConcurrentUnionFind(size_t n);

  size_t size() const { return n_; }
  uint32_t find(uint32_t x);
  void unite(uint32_t a, uint32_t b);
  // Unites every pair, spreading the work over `threads` threads.
  void unite_all(const std::vector<std::pair<uint32_t, uint32_t>>& pairs, int threads);

 private:
  size_t n_;
  std::unique_ptr<std::atomic<uint32_t>[]> parent_;
};

}  // namespace winnow
