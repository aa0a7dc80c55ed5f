// read_spoken_date on its own: how many tokens a date takes and what it leaves. NeMo's cases run
// through spoken_english (spoken_english_test.cpp).
#include "text/spoken_date.h"

#include <gtest/gtest.h>

#include <vector>

namespace winnow::testing {
namespace {

std::optional<SpokenDate> read(const std::vector<SpokenToken>& tokens) {
  return read_spoken_date(std::span<const SpokenToken>(tokens));
}

TEST(SpokenDate, TakesTheTokensOfTheDate) {
  auto a = read({{"", "July", ""}, {"", "4", ","}, {"", "1776", "."}, {"", "was", ""}});
  ASSERT_TRUE(a);
  EXPECT_EQ(a->words, "july fourth seventeen seventy six");
  EXPECT_EQ(a->tokens, 3u);
  auto b = read({{"", "the", ""}, {"", "5th", ""}, {"", "Nov", "."}, {"", "1605", ""}});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->words, "the fifth of november sixteen oh five");
  EXPECT_EQ(b->tokens, 4u);
  auto c = read({{"", "Dec", "."}, {"", "the", ""}, {"", "31st", ""}, {"", "3000", ""}});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->words, "december thirty first");  // 3000 is no year NeMo reads
  EXPECT_EQ(c->tokens, 3u);
}

TEST(SpokenDate, LeavesWhatIsNoDate) {
  const std::vector<std::vector<SpokenToken>> none = {
      {{"", "July", ""}},
      {{"", "July", ""}, {"", "2012", ""}},  // a year alone reads as it does anyway
      {{"", "July", ","}, {"", "4", ""}},    // punctuation between
      {{"", "July", ""}, {"(", "4", ")"}},
      {{"", "may", ""}, {"", "be", ""}},
      {{"", "4", ""}, {"", "cats", ""}},
      {{"", "04", ""}, {"", "july", ""}},  // a leading zero: no day here
      {{"", "the", ""}, {"", "4", ""}},
      {{"", "Mayo", ""}, {"", "4", ""}},
  };
  for (const auto& tokens : none) EXPECT_FALSE(read(tokens)) << tokens[0].core;
}

}  // namespace
}  // namespace winnow::testing
