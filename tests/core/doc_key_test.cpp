#include "core/doc_key.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

TEST(DocKey, RoundTripsShardAndRow) {
  DocKey key = DocKey::make(12345, 987654321);
  EXPECT_EQ(key.shard(), 12345u);
  EXPECT_EQ(key.row(), 987654321u);
}

TEST(DocKey, OrdersByShardThenRow) {
  EXPECT_LT(DocKey::make(1, 999999), DocKey::make(2, 0));
  EXPECT_LT(DocKey::make(2, 3), DocKey::make(2, 4));
}

TEST(DocKey, HandlesLimits) {
  DocKey key = DocKey::make(DocKey::kMaxShard, DocKey::kRowMask);
  EXPECT_EQ(key.shard(), DocKey::kMaxShard);
  EXPECT_EQ(key.row(), DocKey::kRowMask);
}

}  // namespace
}  // namespace winnow
