#include "io/shard_batches.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

TEST(ShardBatches, NumbersBatchesThenSendsOneEndMarkerThenNothing) {
  ShardBatches batches(7);
  for (uint64_t i = 0; i < 3; ++i) {
    auto batch = batches.next(false);
    ASSERT_NE(batch, nullptr);
    EXPECT_EQ(batch->shard, 7u);
    EXPECT_EQ(batch->sequence, i);
    EXPECT_FALSE(batch->end_of_shard);
  }
  auto end = batches.next(true);
  ASSERT_NE(end, nullptr);
  EXPECT_TRUE(end->end_of_shard);
  EXPECT_EQ(end->sequence, 3u);  // the writer reads the batch count from it
  EXPECT_EQ(batches.next(true), nullptr);
  EXPECT_EQ(batches.next(false), nullptr);
}

TEST(ShardBatches, AnEmptyLastBatchBecomesTheEndMarkerWithoutAnotherNumber) {
  ShardBatches batches(0);
  auto first = batches.next(false);
  auto last = batches.next(false);
  ASSERT_NE(last, nullptr);
  // The reader found the input ended while filling it, with nothing read.
  auto end = batches.end_here(std::move(last));
  EXPECT_TRUE(end->end_of_shard);
  EXPECT_EQ(end->sequence, 1u);
  EXPECT_EQ(batches.next(false), nullptr);
}

}  // namespace
}  // namespace winnow
