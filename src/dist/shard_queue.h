#pragma once
// ShardQueue: the shards one pass reads on this rank. A shared queue hands the shards out one
// at a time, in a fixed order (largest first), to whichever rank asks next, so a slow rank or
// one long file does not hold the job: ranks that finish early take more. A fixed queue is a
// list known in advance (one rank's share from dist/shard_assignment.h, or the shards this
// rank read in an earlier pass of the same run). Outputs are named by shard, never by rank, so
// which rank reads a shard never changes a byte of them.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "dist/comm.h"

namespace winnow::dist {

class ShardQueue {
 public:
  // `shards`, in this order, to this rank alone.
  static std::unique_ptr<ShardQueue> fixed(std::vector<uint32_t> shards);
  // Collective: `order` (the same on every rank) handed out across the ranks of `comm` as they
  // ask. In one process, or where the Comm has no shared counter, each rank gets its static
  // share (shards_of_rank by `sizes`, indexed by shard) instead, in shard order.
  static std::unique_ptr<ShardQueue> shared(Comm& comm, std::vector<uint32_t> order,
                                            const std::vector<uint64_t>& sizes);

  // The next shard for this rank; nullopt once the queue is empty (and from then on).
  // Thread-safe.
  std::optional<uint32_t> next();
  // True when the list is this rank's alone (known in advance).
  bool is_fixed() const { return !counter_; }
  // Shards not yet handed out: exact for a fixed queue, the whole job's for a shared one.
  size_t remaining() const;
  // Every shard this queue could hand out (this rank's list, or the whole job's order).
  const std::vector<uint32_t>& candidates() const { return order_; }
  // How many ranks share it (1 for a fixed queue).
  int ranks() const { return ranks_; }

 private:
  ShardQueue(std::vector<uint32_t> order, std::unique_ptr<SharedCounter> counter, int ranks)
      : order_(std::move(order)), counter_(std::move(counter)), ranks_(ranks) {}

  std::vector<uint32_t> order_;
  std::unique_ptr<SharedCounter> counter_;  // null: a fixed list
  int ranks_ = 1;
  std::atomic<uint64_t> next_{0};       // a fixed list's position
  std::atomic<bool> exhausted_{false};  // a shared queue has told this rank it is empty
};

// The shards of `candidates`, largest first by `sizes` (indexed by shard), equal sizes in
// shard order: a function of the list, so every rank computes the same.
std::vector<uint32_t> largest_first(std::vector<uint32_t> candidates,
                                    const std::vector<uint64_t>& sizes);

}  // namespace winnow::dist
