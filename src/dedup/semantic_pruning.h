#pragma once
// Semantic dedup's fourth identify phase (dedup/semantic_step.h): every spilled cluster pruned,
// partitions in parallel (dedup/cluster_pruner.h; a streamed cluster from its tile file,
// dedup/streamed_pruner.h), at eps and at every eps of the sweep; each item's outcome in key
// order, the same for any thread count.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "dedup/cluster_pruner.h"
#include "dedup/cluster_spill.h"
#include "dedup/semantic_options.h"

namespace winnow {

// One item's outcome after pruning.
struct ItemOutcome {
  uint64_t key = 0;
  uint32_t cluster = 0;
  float similarity = 0;
  uint32_t removed = 0;  // bit t: removed at thresholds[t]
  uint64_t matched_key = 0;
  std::string id, matched_id, excerpt, matched_excerpt;  // removed items only
};

// The pruner's options: thresholds 1 - eps, then 1 - each eps of the sweep.
PruneOptions semantic_prune_options(const SemanticOptions& options);

// Prunes every cluster of `spill` (rows of `d` floats). Clusters over 4 blocks of rows, and
// streamed ones, are pruned after the others one at a time with every thread on their column
// blocks (NeMo's rule; keep_one_per_group decides in order), so one dominant cluster does not
// leave the other threads idle; the result is the same either way. Sorted by key.
Result<std::vector<ItemOutcome>> prune_spilled_clusters(const ClusterSpill& spill, size_t d,
                                                        const SemanticOptions& options,
                                                        int threads);

}  // namespace winnow
