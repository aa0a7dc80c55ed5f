#include "dedup/shingler.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

using Strings = std::vector<std::string>;

TEST(Shingler, CharacterShinglesAreCodePointWindows) {
  Shingler s({ShingleKind::kChars, 3});
  EXPECT_EQ(s.shingles("abcde"), (Strings{"abc", "bcd", "cde"}));
  EXPECT_EQ(s.shingles("héllo"), (Strings{"hél", "éll", "llo"}));
  EXPECT_EQ(s.shingles("ab"), (Strings{"ab"}));  // shorter than n: the whole text
  EXPECT_EQ(s.shingles("東京都"), (Strings{"東京都"}));
  EXPECT_TRUE(s.shingles("").empty());
  std::vector<uint32_t> hashes;
  s.hashes("abcabc", hashes);
  ASSERT_EQ(hashes.size(), 4u);
  EXPECT_EQ(hashes[0], hashes[3]);  // "abc" twice
  EXPECT_NE(hashes[0], hashes[1]);
}

TEST(Shingler, WordShinglesAfterDatatroveNormalisation) {
  Shingler s({ShingleKind::kWords, 2});
  EXPECT_EQ(s.shingles("The  Café, in 1999!\nthe END"),
            (Strings{"the cafe", "cafe in", "in 0000", "0000 the", "the end"}));
  EXPECT_EQ(s.shingles("one"), (Strings{"one"}));
  EXPECT_TRUE(s.shingles(" ,.; ").empty());
}

}  // namespace
}  // namespace winnow
