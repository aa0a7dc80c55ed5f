#include "core/doc_key.h"

#include <gtest/gtest.h>

#include <unordered_set>

namespace winnow {
namespace {

TEST(DocKey, RoundTripsShardAndRow) {
  DocKey key = DocKey::make(12345, 987654321);
  EXPECT_EQ(key.shard(), 12345u);
  EXPECT_EQ(key.row(), 987654321u);
  EXPECT_FALSE(key.derived());
}

TEST(DocKey, OrdersByShardThenRow) {
  EXPECT_LT(DocKey::make(1, 999999), DocKey::make(2, 0));
  EXPECT_LT(DocKey::make(2, 3), DocKey::make(2, 4));
}

TEST(DocKey, HandlesLimits) {
  DocKey key = DocKey::make(DocKey::kMaxShard, DocKey::kRowMask);
  EXPECT_EQ(key.shard(), DocKey::kMaxShard);
  EXPECT_EQ(key.row(), DocKey::kRowMask);
  EXPECT_FALSE(key.derived());  // the largest source key never looks derived
}

TEST(DocKey, ChildKeysAreStableDistinctAndNeverSourceKeys) {
  DocKey parent = DocKey::make(3, 17);
  EXPECT_EQ(DocKey::child(parent, 5), DocKey::child(DocKey::make(3, 17), 5));
  std::unordered_set<uint64_t> seen;
  // Every child of 2,000 parents (shards 0..1, rows 0..999), 50 children each: all distinct,
  // all derived, none equal to its parent; grandchildren too.
  for (uint64_t shard = 0; shard < 2; ++shard) {
    for (uint64_t row = 0; row < 1000; ++row) {
      DocKey p = DocKey::make(shard, row);
      for (uint64_t i = 0; i < 50; ++i) {
        DocKey c = DocKey::child(p, i);
        EXPECT_TRUE(c.derived());
        EXPECT_NE(c, p);
        EXPECT_TRUE(seen.insert(c.value()).second);
        if (i < 3) {
          EXPECT_TRUE(seen.insert(DocKey::child(c, 0).value()).second);
        }
      }
    }
  }
}

}  // namespace
}  // namespace winnow
