#include "pipeline/shard_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "dist/thread_comm.h"

namespace winnow {
namespace {

std::vector<uint32_t> drain(dist::ShardQueue& queue) {
  std::vector<uint32_t> got;
  while (auto shard = queue.next()) got.push_back(*shard);
  return got;
}

// The first pass takes from the shared queue; a later pass over the still-pending shards reads
// only those this rank read in the first (its removals and stored batches are about them), so
// between the ranks every pending shard is read once.
TEST(ShardPlan, LaterPassesReadWhatThisRankReadFirst) {
  const std::vector<uint64_t> sizes = {5, 50, 7, 30, 1, 9, 12, 40};
  const std::vector<uint32_t> every = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<uint32_t> pending = {1, 2, 5, 6};
  testing::ThreadComms comms(2);
  std::mutex mutex;
  std::map<int, std::vector<uint32_t>> first, later;
  comms.run([&](dist::Comm& comm) {
    ShardPlan plan(comm, sizes);
    auto queue = plan.queue_for(every);
    EXPECT_FALSE(queue->is_fixed());
    // Rank 0 takes the first shard of the order (the largest, 1); the barrier makes the
    // split definite: then rank 1 takes everything left.
    std::vector<uint32_t> read;
    if (comm.rank() == 0) read.push_back(*queue->next());
    comm.barrier();
    if (comm.rank() == 1) read = drain(*queue);
    comm.barrier();
    plan.pass_read(read);
    auto again = plan.queue_for(pending);
    EXPECT_TRUE(again->is_fixed());
    std::lock_guard lock(mutex);
    first[comm.rank()] = read;
    later[comm.rank()] = drain(*again);
  });
  EXPECT_EQ(first[0], (std::vector<uint32_t>{1}));
  EXPECT_EQ(first[1], (std::vector<uint32_t>{7, 3, 6, 5, 2, 0, 4}));  // largest first
  EXPECT_EQ(later[0], (std::vector<uint32_t>{1}));
  EXPECT_EQ(later[1], (std::vector<uint32_t>{2, 5, 6}));
}

TEST(ShardPlan, OneProcessReadsEveryPendingShard) {
  ShardPlan plan(dist::local_comm(), {3, 1, 2});
  auto queue = plan.queue_for({0, 1, 2});
  EXPECT_EQ(drain(*queue), (std::vector<uint32_t>{0, 1, 2}));
  plan.pass_read({0, 2, 1});
  EXPECT_EQ(drain(*plan.queue_for({1, 2})), (std::vector<uint32_t>{1, 2}));
}

}  // namespace
}  // namespace winnow
