#include "dist/shard_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "dist/thread_comm.h"

namespace winnow::dist {
namespace {

std::vector<uint32_t> drain(ShardQueue& queue) {
  std::vector<uint32_t> got;
  while (auto shard = queue.next()) got.push_back(*shard);
  return got;
}

TEST(ShardQueue, LargestFirstWithTiesInShardOrder) {
  EXPECT_EQ(largest_first({0, 1, 2, 3, 4}, {5, 9, 5, 1, 9}),
            (std::vector<uint32_t>{1, 4, 0, 2, 3}));
  EXPECT_EQ(largest_first({3, 2}, {5, 9, 5, 1, 9}), (std::vector<uint32_t>{2, 3}));
}

TEST(ShardQueue, FixedGivesItsListOnceThenNothing) {
  auto queue = ShardQueue::fixed({7, 3, 5});
  EXPECT_TRUE(queue->is_fixed());
  EXPECT_EQ(queue->remaining(), 3u);
  EXPECT_EQ(drain(*queue), (std::vector<uint32_t>{7, 3, 5}));
  EXPECT_EQ(queue->remaining(), 0u);
  EXPECT_FALSE(queue->next().has_value());
}

TEST(ShardQueue, OneProcessReadsEveryShardInShardOrder) {
  auto queue = ShardQueue::shared(local_comm(), {4, 0, 2}, {10, 0, 5, 0, 20});
  EXPECT_TRUE(queue->is_fixed());
  EXPECT_EQ(drain(*queue), (std::vector<uint32_t>{0, 2, 4}));
}

// Three ranks, two takers each: every shard goes to exactly one rank.
TEST(ShardQueue, SharedHandsEveryShardToExactlyOneRank) {
  constexpr uint32_t kShards = 500;
  std::vector<uint32_t> order(kShards);
  std::vector<uint64_t> sizes(kShards, 1);
  for (uint32_t i = 0; i < kShards; ++i) order[i] = (i * 7) % kShards;
  testing::ThreadComms comms(3);
  std::mutex mutex;
  std::map<int, std::vector<uint32_t>> by_rank;
  comms.run([&](Comm& comm) {
    auto queue = ShardQueue::shared(comm, order, sizes);
    EXPECT_FALSE(queue->is_fixed());
    std::vector<uint32_t> mine;
    std::mutex mine_mutex;
    std::vector<std::thread> takers;
    for (int t = 0; t < 2; ++t) {
      takers.emplace_back([&] {
        while (auto shard = queue->next()) {
          std::lock_guard lock(mine_mutex);
          mine.push_back(*shard);
        }
      });
    }
    for (std::thread& t : takers) t.join();
    EXPECT_EQ(queue->remaining(), 0u);
    {
      std::lock_guard lock(mutex);
      by_rank[comm.rank()] = mine;
    }
    comm.barrier();  // the counter goes on every rank together
  });
  std::multiset<uint32_t> all;
  for (const auto& [rank, shards] : by_rank) all.insert(shards.begin(), shards.end());
  EXPECT_EQ(all.size(), kShards);
  EXPECT_EQ(std::set<uint32_t>(all.begin(), all.end()).size(), kShards);
}

// The point of the queue: a rank that is busy with one shard does not hold the others. Rank 1
// takes one shard and waits until the others have emptied the queue; they read the rest.
TEST(ShardQueue, ARankBusyWithOneShardLeavesTheRestToTheOthers) {
  constexpr uint32_t kShards = 40;
  std::vector<uint32_t> order(kShards);
  for (uint32_t i = 0; i < kShards; ++i) order[i] = i;
  std::vector<uint64_t> sizes(kShards, 100);
  testing::ThreadComms comms(3);
  std::mutex mutex;
  std::condition_variable others_done;
  int finished_others = 0;
  std::map<int, std::vector<uint32_t>> by_rank;
  comms.run([&](Comm& comm) {
    auto queue = ShardQueue::shared(comm, order, sizes);
    std::vector<uint32_t> mine;
    if (comm.rank() == 1) mine.push_back(queue->next().value());
    comm.barrier();  // rank 1 holds its shard before the others start
    if (comm.rank() == 1) {
      std::unique_lock lock(mutex);
      others_done.wait(lock, [&] { return finished_others == 2; });
      lock.unlock();
      EXPECT_FALSE(queue->next().has_value());
    } else {
      mine = drain(*queue);
      std::lock_guard lock(mutex);
      ++finished_others;
      others_done.notify_all();
    }
    {
      std::lock_guard lock(mutex);
      by_rank[comm.rank()] = mine;
    }
    comm.barrier();
  });
  EXPECT_EQ(by_rank[1].size(), 1u);
  EXPECT_EQ(by_rank[0].size() + by_rank[2].size(), kShards - 1);
}

}  // namespace
}  // namespace winnow::dist
