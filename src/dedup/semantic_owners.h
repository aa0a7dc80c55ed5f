#pragma once
// Semantic dedup across ranks (dedup/semantic_step.h, issue 32 item 2): after the divided fit
// and assignment (dedup/semantic_clustering.h) each rank holds its own rows and their labels.
// Here every cluster goes to one owner rank, which ranks and prunes it alone, and the verdicts
// go back to the ranks that read the documents.
//  - Owners: clusters largest first (ties: smaller index), each to the rank with the fewest rows
//    so far (ties: smaller rank): the same map on every rank, from the cluster sizes alone.
//  - Rounds: each owner takes its clusters, in that order, a round's worth at a time (at most
//    `round_bytes` of rows, memory_mb / kClusterRoundShare in the step, at least one cluster); every rank sends, in one all_to_all per
//    round, its members and rows of the round's clusters. The owner ranks each cluster's members
//    (rank_members: the order depends on rank values and keys alone, not on where the members
//    came from) and writes it to its ClusterSpill, so it holds one round at a time.
//  - Verdicts: each owner's outcomes; removals go to the rank that read each document, the table
//    rows (removed items only, small) to rank 0.
// Pruning sees each cluster's rows in the same rank order as one process does, so every
// decision, and the table made of them, is the same bits for any rank count.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/status.h"
#include "dedup/cluster_spill.h"
#include "dedup/semantic_clustering.h"
#include "dedup/semantic_pruning.h"
#include "dist/comm.h"

namespace winnow {

// A round carries at most memory_mb / kClusterRoundShare of rows to each owner (16 MiB of the
// default 1 GiB): a round's bytes exist about four times at once (the messages out, the
// transport's buffers, the messages in, the clusters regrouped), beside the rank's own rows.
// Rounds are cheap (one all_to_all each), so small ones cost little time.
constexpr size_t kClusterRoundShare = 64;

// The owner rank of each cluster, from the clusters' sizes (the same on every rank).
std::vector<int> cluster_owners(const std::vector<uint64_t>& sizes, int ranks);

// The round in which each cluster travels: each owner's clusters in the order they were given
// to it, cut into rounds of at most `round_bytes` (a larger cluster alone in its round).
std::vector<uint32_t> cluster_rounds(const std::vector<uint64_t>& sizes,
                                     const std::vector<int>& owners, size_t bytes_per_row,
                                     size_t round_bytes);

struct OwnedClusters {
  // The members of this rank's clusters, each with the rank that read it, sorted by key.
  std::vector<std::pair<uint64_t, int>> origins;
  uint64_t rounds = 0;
  uint64_t peak_round_rows = 0;  // the most rows this rank received in one round
};

// Collective. Sends every cluster's members and rows to its owner, which ranks them and writes
// them to `spill` (closed at the end). `items` and `matrix` are this rank's, labelled by
// `clustering`.
Result<OwnedClusters> send_clusters_to_owners(dist::Comm& comm, const SemanticClustering& clustering,
                                              const std::vector<SemanticItem>& items,
                                              const MappedMatrix& matrix, SemanticRanking ranking,
                                              size_t round_bytes, ClusterSpill& spill);

struct RoutedVerdicts {
  std::vector<ItemOutcome> own_removed;  // removed at eps, documents this rank read, by key
  std::vector<ItemOutcome> all_removed;  // rank 0: removed at eps, every rank's, by key
  std::vector<uint64_t> removed_at;      // per threshold, over every rank
};

// Collective. `outcomes`: this rank's owned clusters' (sorted by key); `origins` from
// send_clusters_to_owners (null: this rank read them all, one process). `thresholds`: their
// count.
Result<RoutedVerdicts> route_verdicts(dist::Comm& comm, std::vector<ItemOutcome>& outcomes,
                                      const std::vector<std::pair<uint64_t, int>>* origins,
                                      size_t thresholds);

}  // namespace winnow
