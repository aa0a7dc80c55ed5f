#include "dist/shard_assignment.h"

#include <algorithm>
#include <numeric>

namespace winnow::dist {

std::vector<uint32_t> shards_of_rank(const std::vector<uint64_t>& sizes, int ranks, int rank) {
  std::vector<uint32_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0u);
  // Largest first; equal sizes in shard order, so the assignment is a function of the list.
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return sizes[a] > sizes[b]; });
  std::vector<uint64_t> load(static_cast<size_t>(std::max(ranks, 1)), 0);
  std::vector<uint32_t> mine;
  for (uint32_t shard : order) {
    size_t least = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    // An empty shard still counts, so empty files spread over ranks too.
    load[least] += std::max<uint64_t>(sizes[shard], 1);
    if (least == static_cast<size_t>(rank)) mine.push_back(shard);
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

}  // namespace winnow::dist
