#pragma once
// ShardPlan: which shards this rank reads in each pass of one run. The first pass that reads
// takes its shards from a queue the ranks share (dist/shard_queue.h: largest first, to whichever
// rank has a worker free), so one slow rank or one long file does not hold the job. Every later
// pass of the run reads exactly the shards this rank read then: what a rank knows after an
// identify pass (the removals of the documents it read) and what it stored between passes (in
// its own folder) are about those documents only.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "dist/comm.h"
#include "dist/shard_queue.h"

namespace winnow {

class ShardPlan {
 public:
  // `sizes`: every shard's bytes, indexed by shard (the queue's order).
  ShardPlan(dist::Comm& comm, std::vector<uint64_t> sizes)
      : comm_(comm), sizes_(std::move(sizes)) {}

  // Collective (every rank, the same `shards`): the queue of a pass over `shards` (sorted;
  // every shard of the input, or those still to write).
  std::unique_ptr<dist::ShardQueue> queue_for(const std::vector<uint32_t>& shards) const;
  // After a pass: the shards its source read. The first call fixes what later passes read.
  void pass_read(std::vector<uint32_t> shards);

 private:
  dist::Comm& comm_;
  std::vector<uint64_t> sizes_;
  std::optional<std::vector<uint32_t>> read_;  // sorted; set by the first pass
};

}  // namespace winnow
