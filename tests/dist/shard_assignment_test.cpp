// dist/shard_assignment.h: largest first, to the least loaded rank; every shard exactly once.
#include "dist/shard_assignment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace winnow::dist {
namespace {

TEST(ShardAssignment, LargestFirstToTheLeastLoadedRank) {
  // Sizes 10, 9, 8, 1, 1, 1 on two ranks: 10 -> r0, 9 -> r1, 8 -> r1 (9 < 10), then the
  // three ones -> r0 (11, 12, 13: all below r1's 17).
  std::vector<uint64_t> sizes = {1, 10, 8, 1, 9, 1};
  EXPECT_EQ(shards_of_rank(sizes, 2, 0), (std::vector<uint32_t>{0, 1, 3, 5}));
  EXPECT_EQ(shards_of_rank(sizes, 2, 1), (std::vector<uint32_t>{2, 4}));
}

TEST(ShardAssignment, EveryShardOnceWhateverTheRankCount) {
  std::mt19937_64 rng(7);
  for (int shards : {0, 1, 5, 37}) {
    std::vector<uint64_t> sizes(static_cast<size_t>(shards));
    for (auto& s : sizes) s = rng() % 1000;  // zeros and ties included
    for (int ranks : {1, 2, 3, 4, 9}) {
      std::vector<uint32_t> all;
      uint64_t most = 0, least = UINT64_MAX, largest = 0;
      for (int r = 0; r < ranks; ++r) {
        std::vector<uint32_t> mine = shards_of_rank(sizes, ranks, r);
        EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end()));
        uint64_t load = 0;
        for (uint32_t s : mine) load += std::max<uint64_t>(sizes[s], 1);
        most = std::max(most, load);
        least = std::min(least, load);
        all.insert(all.end(), mine.begin(), mine.end());
      }
      for (uint64_t s : sizes) largest = std::max(largest, std::max<uint64_t>(s, 1));
      std::sort(all.begin(), all.end());
      ASSERT_EQ(all.size(), sizes.size()) << shards << " shards on " << ranks;
      for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], i);
      // Greedy balance: no rank ends more than one shard ahead of the lightest.
      if (shards >= ranks) {
        EXPECT_LE(most - least, largest);
      }
      // One rank: the whole input, as without MPI.
      if (ranks == 1) {
        EXPECT_EQ(shards_of_rank(sizes, 1, 0).size(), sizes.size());
      }
    }
  }
}

}  // namespace
}  // namespace winnow::dist
