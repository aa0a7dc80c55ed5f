#include "core/doc_key.h"

#include <gtest/gtest.h>

#include <random>
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

// The two children of (3, 17) that the earlier mix (a 64-bit bijection with its lowest bit
// dropped) gave one key: found by inverting splitmix64's finaliser at 0x123456789abcdef0 and
// 0x123456789abcdef1 and solving for the index, in Python.
TEST(DocKey, ChildrenOneShiftedBitApartStayDistinct) {
  DocKey parent = DocKey::make(3, 17);
  EXPECT_NE(DocKey::child(parent, 0x0648532722ffe563ULL),
            DocKey::child(parent, 0xe6524e3f7e1c5ea9ULL));
}

// The inverse of DocKey::mix63, step by step: undo x ^= x >> s by iterating, and multiply by
// the inverse of each odd constant mod 2^63 (Newton's iteration).
uint64_t undo_xorshift(uint64_t y, int s) {
  uint64_t x = y;
  for (int i = 0; i < 63 / s + 1; ++i) x = y ^ (x >> s);
  return x;
}

uint64_t inverse_mod_2_63(uint64_t a) {
  uint64_t inv = a;  // correct to 3 bits for odd a; each step doubles the correct bits
  for (int i = 0; i < 6; ++i) inv *= 2 - a * inv;
  return inv & DocKey::kLow63;
}

uint64_t unmix63(uint64_t y) {
  constexpr uint64_t kMask = DocKey::kLow63;
  uint64_t x = undo_xorshift(y, 31);
  x = (x * inverse_mod_2_63(0x94d049bb133111ebULL)) & kMask;
  x = undo_xorshift(x, 27);
  x = (x * inverse_mod_2_63(0xbf58476d1ce4e5b9ULL)) & kMask;
  return undo_xorshift(x, 30);
}

// mix63 maps [0, 2^63) into itself and has an inverse, so it is a bijection there: with the
// index's odd step mod 2^63, one parent's 2^63 children all have distinct keys.
TEST(DocKey, ChildMixIsABijectionOf63Bits) {
  std::mt19937_64 random(30);
  for (int i = 0; i < 100000; ++i) {
    uint64_t x = random() & DocKey::kLow63;
    uint64_t y = DocKey::mix63(x);
    ASSERT_EQ(y & DocKey::kDerivedBit, 0u);
    ASSERT_EQ(unmix63(y), x) << x;
  }
  for (uint64_t x : {uint64_t{0}, uint64_t{1}, DocKey::kLow63, DocKey::kLow63 - 1}) {
    EXPECT_EQ(unmix63(DocKey::mix63(x)), x);
  }
}

}  // namespace
}  // namespace winnow
