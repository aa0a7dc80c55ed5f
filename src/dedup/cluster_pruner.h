#pragma once
// ClusterPruner: SemDeDup's decision inside one cluster. The rows come in rank order (the item
// to keep first); for each row it finds the most similar earlier row, by blocked products:
// a column block of `block` rows is multiplied against each row block before it and then
// itself, one block x block sgemm per pair (single-threaded BLAS, dedup/blas_gemm.h), and each
// row's running maximum over the earlier rows is updated block by block (dedup/prune_tile.h).
// Memory is O(block x block) besides the rows, never rows x rows; the products cover the
// upper triangle plus the diagonal blocks. A cluster too large for memory runs the same blocks
// from disk (dedup/streamed_pruner.h), with the same result bit for bit.
//
// Semantics (NeMo's): the maximum is over earlier rows only and is never below 0 (NeMo's
// matrix holds 0 where a row is not earlier); an item is removed when it reaches the
// threshold, even when the item it matched was itself removed. With keep_one_per_group only
// kept earlier rows count, so each group of near-copies keeps exactly its first item.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace winnow {

struct PruneResult {
  // For each row: its maximum similarity to an earlier row (to an earlier kept row with
  // keep_one_per_group, for the first threshold), and, for a row removed at some threshold,
  // that earlier row's index (the first of equals); other rows get their own index.
  std::vector<float> max_similarity;
  std::vector<uint32_t> matched;
  // Bit t set: removed at thresholds[t].
  std::vector<uint32_t> removed;
};

struct PruneOptions {
  size_t block = 1024;
  bool keep_one_per_group = false;
  std::vector<double> thresholds;  // similarity thresholds (1 - eps); at most 32
  // Threads over column blocks (NeMo's rule only: keep_one_per_group decides in order). The
  // result is the same for any count: each block's products and decisions are its own.
  int threads = 1;
};

// `x`: n rows of d floats, in rank order.
PruneResult prune_cluster(const float* x, size_t n, size_t d, const PruneOptions& options);

// Floating-point operations prune_cluster spends on products for n rows (benchmarks).
double prune_flops(size_t n, size_t d, size_t block);

}  // namespace winnow
