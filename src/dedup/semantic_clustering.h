#pragma once
// Semantic dedup's second and third identify phases (dedup/semantic_step.h): k-means on a
// seeded sample chosen by document key, every item to its nearest centroid and its rank value
// (cosine distance to its centroid, a seeded draw, or the field read); then each cluster's
// members, in the order the pruner decides them, to checksummed spill files.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/status.h"
#include "dedup/cluster_spill.h"
#include "dedup/kmeans.h"
#include "dedup/semantic_items.h"
#include "dedup/semantic_options.h"

namespace winnow {

namespace dist {
class Comm;
}

// Across ranks (dist/comm.h) each rank holds its own items; the figures marked "all ranks" are
// the same on every rank.
struct SemanticClustering {
  KMeansResult fit;             // no clusters when there are no items (all ranks)
  std::vector<int64_t> labels;  // per item (row) of this rank
  size_t items = 0;             // all ranks
  size_t sampled = 0;           // items the fit could draw from (sample_fraction; all ranks)
  double inertia = 0;           // sum of squared distances to the assigned centroids (all
                                // ranks; an exact fixed-point sum, the same for any division)
  std::vector<uint64_t> sizes;  // items per cluster (all ranks)
};

// Fits, assigns and sets each item's rank_value (ranking hard, easy or random). Collective
// over `comm`: each rank passes its own items and rows (dedup/kmeans.h, train_kmeans_divided),
// and every rank gets the same fit, the labels of its own rows and the same figures; one
// process gives the same, bit for bit.
Result<SemanticClustering> cluster_items(const MappedMatrix& matrix,
                                         std::vector<SemanticItem>& items,
                                         const SemanticOptions& options, int threads,
                                         dist::Comm& comm);

// The order in which a cluster's members are decided, the one kept first: rank value, then key
// in the same direction (hard: farthest from the centroid first; field: highest first, items
// without a value last). `order` gets indices into `members`.
void rank_members(const std::vector<ClusterMember>& members, std::vector<uint32_t>& order,
                  SemanticRanking ranking);

// Writes each non-empty cluster's members and rows, ranked, to `spill`, and closes it.
Status spill_ranked_clusters(const SemanticClustering& clustering,
                             const std::vector<SemanticItem>& items, const MappedMatrix& matrix,
                             SemanticRanking ranking, ClusterSpill& spill);

}  // namespace winnow
