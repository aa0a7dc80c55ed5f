#pragma once
// PruneTile: the pruning's state for one column tile, rows [c0, c1) of a cluster in rank order
// (dedup/cluster_pruner.h). It absorbs the earlier rows a tile at a time, in ascending order,
// its own diagonal tile last, and then holds each of its rows' decision in the PruneResult.
// Both pruners, in memory (cluster_pruner.h) and streamed from disk (streamed_pruner.h), feed
// it the same tiles in the same order, so they compute the same products (one sgemm per tile
// pair, shapes fixed by the tile size) and take the same maxima: bit-identical results.
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
  void absorb_max(const float* products, size_t r0, size_t r1, bool diagonal);
  void absorb_kept(const float* products, size_t r0, size_t r1, bool diagonal);
  void decide_max();

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
};

}  // namespace winnow
