#pragma once
// Which input shards each rank reads: by size, largest first, each to the rank with the fewest
// bytes so far (ties to the lowest rank), so ranks finish at about the same time. Every rank
// computes the same assignment from the same list; outputs are named by shard, never by rank,
// so the result does not depend on how many ranks there are.
#include <cstdint>
#include <vector>

namespace winnow::dist {

// `sizes[i]`: shard i's bytes. Returns the shards of `rank`, in shard order.
std::vector<uint32_t> shards_of_rank(const std::vector<uint64_t>& sizes, int ranks, int rank);

}  // namespace winnow::dist
