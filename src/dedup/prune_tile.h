#pragma once
// PruneTile: the pruning's state for one column tile, rows [c0, c1) of a cluster in rank order
// (dedup/cluster_pruner.h). It absorbs the earlier rows a tile at a time, in ascending order,
// its own diagonal tile last, and then holds each of its rows' decision in the PruneResult.
// Both pruners, in memory (cluster_pruner.h) and streamed from disk (streamed_pruner.h), feed
// it the same tiles in the same order, so they compute the same products (one sgemm per tile
// pair, shapes fixed by the tile size) and take the same maxima: bit-identical results.
//
// Exact decisions. The float products' rounding depends on the BLAS, the tile size and the
// device, so a row whose best match lies near a threshold, or near a runner-up, could be decided
// differently by another of them. So each row also keeps, over the earlier rows whose float
// similarity is within the error bound (dedup/double_products.h) of both the best seen and the
// lowest threshold, the best fixed-order double product (ties to the earlier row). That set
// always holds the exact best when it reaches the lowest threshold, so a removed row's
// decision, match and similarity (the double rounded to float) are those exact arithmetic gives,
// whatever computed the products: another tile size, or a GPU whose results are settled by the
// same rule (dedup/semantic_device.cpp). Rows below every threshold keep the float maximum
// (it is not written anywhere).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dedup/cluster_pruner.h"

namespace winnow {

class PruneTile {
 public:
  // `rows`: rows c0 .. c1-1, d floats each, valid while the tile absorbs.
  PruneTile(size_t c0, size_t c1, const float* rows, size_t d, const PruneOptions& options,
            PruneResult& out);

  // Rows r0 .. r1-1 (`rows`, d floats each): a tile wholly before c0, or, last, the diagonal
  // tile itself (r0 == c0), after which this tile's decisions are in `out`. With
  // keep_one_per_group an earlier tile's decisions must be final before it is absorbed.
  void absorb(const float* rows, size_t r0, size_t r1, std::vector<float>& products);

 private:
  void absorb_max(const float* products, const float* rows, size_t r0, size_t r1, bool diagonal);
  void absorb_kept(const float* products, const float* rows, size_t r0, size_t r1, bool diagonal);
  void decide_max();
  // Row j's similarity to earlier rows r0.. (`similarity`, `count` of them) against the slot's
  // exact best: the lower bound of the best seen so far rises, and every row within the error
  // of it and of `threshold` gets its double product. `eligible(i)`: whether row i counts.
  void track_exact(size_t j, size_t slot, const float* similarity, size_t r0, size_t count,
                   const float* rows, double threshold, const auto& eligible);
  // Bits and the reported similarity and match of a slot from its exact best, if it has one
  // reaching `threshold`.
  bool exact_reaches(size_t slot, double threshold) const;

  size_t c0_, c1_;
  const float* rows_;
  size_t d_;
  const PruneOptions& options_;
  double lowest_;  // the smallest threshold: a match below it needs no matched row
  size_t levels_;
  PruneResult& out_;
  // Per row of the tile (x levels with keep_one_per_group): the best so far and its row.
  std::vector<float> best_;
  std::vector<uint32_t> best_row_;
  // Per slot: a lower bound of the exact best so far, and the best double product found.
  std::vector<double> lower_;
  std::vector<double> exact_;
  std::vector<uint32_t> exact_row_;  // kNone: no double product yet
  static constexpr uint32_t kNone = UINT32_MAX;
  double error_;                    // gamma_d (+ slack): the products' relative error
  std::vector<double> norms_;       // the tile's rows' lengths
  std::vector<double> other_norms_; // the absorbed rows' lengths (this call's)
  double other_longest_ = 0;
};

}  // namespace winnow
