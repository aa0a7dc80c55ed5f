#pragma once
// The duplicates table across ranks: each group's rows are made where the group's label lives
// (dedup/duplicate_clusterer.h); here they go to the owners of table partitions — ranges of
// group ids, cut at quantiles of a sample of the ids chosen by their hash, so the ranges do not
// depend on the rank count — which sort and write their partitions in parallel. Rank 0 then
// joins the partitions in order into the table file (a streamed byte copy: the partitions'
// concatenation is the one-process table, byte for byte) and removes them.
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "dedup/duplicates_table.h"
#include "dist/comm.h"

namespace winnow {

struct TableRow {
  DuplicateEntry entry;
  uint64_t component_size = 0;
};

// Collective. `rows`: this rank's (emptied). Written atomically to `path`; returns once every
// rank's share is in it. `partitions`: at most this many ranges.
Status write_table_partitions(dist::Comm& comm, std::vector<TableRow>& rows, uint32_t partitions,
                              const std::string& path, TableFormat format);

}  // namespace winnow
