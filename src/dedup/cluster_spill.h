#pragma once
// ClusterSpill: the members of every k-means cluster, on disk between assignment and pruning,
// so that pruning holds one partition's clusters at a time instead of every embedding.
// Cluster c goes to partition file c % partitions, one checksummed block per cluster
// (dedup/spill_file.h); a damaged file is an error naming it, never silently used.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "dedup/spill_file.h"

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
  std::vector<float> rows;  // members.size() x dims, in member order
};

class ClusterSpill {
 public:
  ClusterSpill(std::string dir, size_t partitions, size_t dims);

  size_t partitions() const { return partitions_; }
  std::string path(size_t partition) const;
  // One thread only. `rows[i]` is the row of members[i] in `matrix` (dims floats per row).
  Status write(uint32_t cluster, const std::vector<ClusterMember>& members, const float* matrix,
               const std::vector<uint32_t>& rows);
  Status close();
  uint64_t bytes_written() const;

  // Thread-safe for distinct partitions: every cluster of `partition`, verified.
  Status read_partition(size_t partition, const std::function<Status(ClusterData&)>& visit) const;

 private:
  std::string dir_;
  size_t partitions_;
  size_t dims_;
  std::vector<std::unique_ptr<SpillWriter>> writers_;
  std::vector<uint64_t> sizes_;
};

}  // namespace winnow
