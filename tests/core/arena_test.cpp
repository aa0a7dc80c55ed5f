#include "core/arena.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace winnow {
namespace {

TEST(Arena, ViewsStayValidAsItGrowsPastAChunk) {
  Arena arena(64);
  std::vector<std::string> expected;
  std::vector<std::string_view> views;
  std::mt19937 rng(3);
  size_t total = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string s(1 + rng() % 40, static_cast<char>('a' + i % 26));
    s += std::to_string(i);
    total += s.size();
    views.push_back(arena.append(s));
    expected.push_back(std::move(s));  // the source dies: the view must not depend on it
  }
  EXPECT_EQ(arena.bytes_used(), total);
  for (size_t i = 0; i < views.size(); ++i) ASSERT_EQ(views[i], expected[i]) << i;
}

TEST(Arena, DefaultChunkSizeGrowth) {
  Arena arena;
  std::vector<std::string_view> views;
  const std::string block(100000, 'q');
  for (int i = 0; i < 40; ++i) views.push_back(arena.append(block));  // ~4 MB, several chunks
  for (auto v : views) ASSERT_EQ(v, block);
  EXPECT_EQ(arena.bytes_used(), 40u * block.size());
}

TEST(Arena, OversizedAppends) {
  Arena arena(16);
  std::string_view small1 = arena.append("0123456789");
  std::string big(1000, 'B');
  std::string_view big_view = arena.append(big);
  std::string_view small2 = arena.append("abc");
  std::string huge(5000, 'H');
  std::string_view huge_view = arena.append(huge);
  std::string_view small3 = arena.append("xyz");
  big.assign(big.size(), '-');
  huge.assign(huge.size(), '-');
  EXPECT_EQ(small1, "0123456789");
  EXPECT_EQ(big_view, std::string(1000, 'B'));
  EXPECT_EQ(small2, "abc");
  EXPECT_EQ(huge_view, std::string(5000, 'H'));
  EXPECT_EQ(small3, "xyz");
  EXPECT_EQ(arena.bytes_used(), 10u + 1000 + 3 + 5000 + 3);
}

TEST(Arena, ViewsDoNotOverlap) {
  Arena arena(100);
  std::vector<std::string_view> views;
  for (int i = 0; i < 200; ++i) views.push_back(arena.append(std::string(1 + i % 37, 'x')));
  std::vector<std::pair<const char*, const char*>> ranges;
  for (auto v : views) ranges.emplace_back(v.data(), v.data() + v.size());
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) ASSERT_LE(ranges[i - 1].second, ranges[i].first);
}

TEST(Arena, EmptyAppend) {
  Arena arena(8);
  std::string_view empty = arena.append("");
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(arena.bytes_used(), 0u);
  EXPECT_EQ(arena.append("abcdefgh"), "abcdefgh");  // exactly one chunk
  EXPECT_EQ(arena.append("i"), "i");
  EXPECT_EQ(arena.bytes_used(), 9u);
}

}  // namespace
}  // namespace winnow
