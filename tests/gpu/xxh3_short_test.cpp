#include "gpu/xxh3_short.h"

#include <gtest/gtest.h>

// libxxhash, the CPU's XXH3 (the reference); inline so the test needs no extra library.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <random>
#include <vector>

namespace winnow::gpu {
namespace {

// The device's XXH3 is this same source compiled by nvcc: equal to libxxhash on every length
// of every short path (0, 1-3, 4-8, 9-16, 17-128, 129-240), at any offset and seed.
TEST(Xxh3Short, EqualsLibxxhashForEveryShortLengthAndSeed) {
  std::mt19937_64 random(19);
  std::vector<uint8_t> bytes(xxh3::kMaxShortLength + 16);
  for (int round = 0; round < 20; ++round) {
    for (auto& b : bytes) b = static_cast<uint8_t>(random());
    const uint64_t seeds[] = {0, 1, static_cast<uint64_t>(round) + 2, random()};
    for (size_t len = 0; len <= xxh3::kMaxShortLength; ++len) {
      const size_t offset = random() % 16;
      for (uint64_t seed : seeds) {
        ASSERT_EQ(xxh3::hash64(bytes.data() + offset, len, seed, xxh3::kHostSecret),
                  XXH3_64bits_withSeed(bytes.data() + offset, len, seed))
            << "length " << len << " seed " << seed;
      }
    }
  }
}

TEST(Xxh3Short, UnseededIsSeedZero) {
  const char text[] = "the quick brown fox jumps over the lazy dog";
  const auto* p = reinterpret_cast<const uint8_t*>(text);
  EXPECT_EQ(xxh3::hash64(p, 24, 0, xxh3::kHostSecret), XXH3_64bits(text, 24));
}

}  // namespace
}  // namespace winnow::gpu
