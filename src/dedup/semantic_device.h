#pragma once
// Semantic dedup's products on a GPU (gpu/blas/gpu_similarity.h) with the CPU's decisions, bit
// for bit. The GPU's float products round differently from the CPU's BLAS, so what comes back
// per row (the best, its match and the runner-up's value) is settled on the host by the rule
// the CPU path follows (dedup/double_products.h): a row that could reach the lowest threshold
// is decided on fixed-order double products, with one product when the runner-up is below the
// best by more than the float error, else by its whole row again on the host. Likewise the
// k-means assignment (dedup/kmeans.h NearestCentroid::decide_from_top_two).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/status.h"
#include "dedup/cluster_pruner.h"
#include "dedup/semantic_options.h"

namespace winnow {

// The pruning's result from another device's per-row float values: `best` (the largest
// similarity to an earlier row, 0 floor), `matched` (its row, the first of equals) and
// `second` (the largest to any other earlier row), settled as prune_tile.h decides. Pure host
// code: the tests feed it products rounded in other ways.
void settle_max_similarity(const float* x, size_t n, size_t d, const PruneOptions& options,
                           const std::vector<float>& best, const std::vector<uint32_t>& matched,
                           const std::vector<float>& second, PruneResult& out);

// prune_cluster's result (NeMo's rule; keep_one_per_group decides in order and stays on the
// CPU) from products on `device`.
Result<PruneResult> prune_cluster_on_device(const SemanticDevice& device, const float* x, size_t n,
                                            size_t d, const PruneOptions& options);

// assign_nearest's result from products on `device`.
Status assign_nearest_on_device(const SemanticDevice& device, const float* x, size_t n, size_t d,
                                const float* centroids, size_t k, bool inner_product, int threads,
                                int64_t* labels, float* score);

// The pruning of one cluster held in memory: on the device when there is one, the cluster is
// large enough and the rule allows (NeMo's), else, or when the device fails (said once), on the
// CPU. The same result either way.
PruneResult prune_cluster_anywhere(const SemanticDevice& device, const float* x, size_t n,
                                   size_t d, const PruneOptions& options);

// assign_nearest on the device when there is one, else, or when the device fails (said once),
// on the CPU. The same labels and scores either way.
void assign_nearest_anywhere(const SemanticDevice& device, const float* x, size_t n, size_t d,
                             const float* centroids, size_t k, bool inner_product, int threads,
                             int64_t* labels, float* score);

}  // namespace winnow
