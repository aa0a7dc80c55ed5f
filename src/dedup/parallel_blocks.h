#pragma once
// run_blocks: body(b) for every b in [0, blocks), shared out to `threads` threads (the caller's
// included) block by block as each finishes. The results must not depend on which thread takes
// which block: the callers (the k-means assignment, the GPU products' settling) write disjoint
// rows.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace winnow {

template <class Body>
void run_blocks(size_t blocks, int threads, const Body& body) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t b = next++; b < blocks; b = next++) body(b);
  };
  const int helpers = std::min<int>(std::max(threads, 1), static_cast<int>(blocks)) - 1;
  std::vector<std::thread> pool;
  for (int t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace winnow
