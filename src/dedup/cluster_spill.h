#pragma once
// ClusterSpill: the members of every k-means cluster, on disk between assignment and pruning,
// so that pruning holds one partition's clusters at a time instead of every embedding.
// Cluster c goes to partition file c % partitions, one checksummed block per cluster
// (dedup/spill_file.h); a damaged file is an error naming it, never silently used.
// A cluster whose rows exceed `stream_above_bytes` keeps only its members in that block: its
// rows go to a tile file of their own (dedup/tile_file.h), in blocks of `tile_rows`, for the
// out-of-core pruner (dedup/streamed_pruner.h), so no step ever holds the whole cluster.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "dedup/spill_file.h"
#include "dedup/tile_file.h"

namespace winnow {

struct ClusterMember {
  uint64_t key = 0;
  double rank_value = 0;
  std::string id;
  std::string excerpt;
};

struct ClusterData {
  uint32_t cluster = 0;
  std::vector<ClusterMember> members;
  std::vector<float> rows;        // members.size() x dims, in member order; empty when streamed
  std::optional<TileFile> tiles;  // a streamed cluster's rows, in member order
};

class ClusterSpill {
 public:
  ClusterSpill(std::string dir, size_t partitions, size_t dims,
               size_t stream_above_bytes = SIZE_MAX, size_t tile_rows = 1024);

  size_t partitions() const { return partitions_; }
  std::string path(size_t partition) const;
  // One thread only. `rows[i]` is the row of members[i] in `matrix` (dims floats per row).
  // Members come in the order the pruner wants them (rank order): a streamed cluster's tiles
  // are written in it.
  Status write(uint32_t cluster, const std::vector<ClusterMember>& members, const float* matrix,
               const std::vector<uint32_t>& rows);
  Status close();
  uint64_t bytes_written() const;
  // The tile files of the streamed clusters, by cluster (tests damage them).
  const std::map<uint32_t, TileFile>& streamed() const { return streamed_; }

  // Thread-safe for distinct partitions: every cluster of `partition`, verified.
  Status read_partition(size_t partition, const std::function<Status(ClusterData&)>& visit) const;

 private:
  std::string dir_;
  size_t partitions_;
  size_t dims_;
  std::vector<std::unique_ptr<SpillWriter>> writers_;
  std::vector<uint64_t> sizes_;
  size_t stream_above_bytes_;
  size_t tile_rows_;
  std::map<uint32_t, TileFile> streamed_;
};

}  // namespace winnow
