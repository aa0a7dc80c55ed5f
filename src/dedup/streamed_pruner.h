#pragma once
// Out-of-core pruning: a cluster whose rows do not fit in memory, read from a TileFile
// (dedup/tile_file.h) whose tiles are the pruner's blocks (tile_rows == options.block). It
// holds a group of column blocks, sized from `memory_bytes`, and streams every earlier row
// block from the file past them, updating their running maxima (dedup/prune_tile.h); then the
// next group. Memory is O(group x d + block x block per thread) plus the O(rows) result, never
// the cluster. The products and the order of maxima are those of prune_cluster
// (dedup/cluster_pruner.h), whatever the group size or thread count: the result is the same
// bit for bit. A damaged tile is an error naming the file.
#include <cstddef>

#include "core/status.h"
#include "dedup/cluster_pruner.h"
#include "dedup/tile_file.h"

namespace winnow {

Result<PruneResult> prune_streamed(const TileFile& file, const PruneOptions& options,
                                   size_t memory_bytes);

// Column blocks held at once for `memory_bytes` (at least one).
size_t streamed_group_blocks(size_t block, size_t d, int threads, size_t memory_bytes);

}  // namespace winnow
