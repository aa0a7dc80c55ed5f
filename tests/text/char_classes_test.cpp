#include "text/char_classes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

namespace winnow {
namespace {

TEST(CharClasses, CountsByHand) {
  // "a1 (é)⟨b⟩\n#?": code points a 1 space ( é ) ⟨ b ⟩ \n # ? = 12.
  CharCounts c = count_char_classes(
      "a1 (\xC3\xA9)\xE2\x9F\xA8"
      "b\xE2\x9F\xA9\n#?");
  EXPECT_EQ(c.chars, 12u);
  EXPECT_EQ(c.digits, 1u);
  EXPECT_EQ(c.letters, 3u);     // a é b
  EXPECT_EQ(c.nemo_alnum, 5u);  // a 1 b \n ?
  EXPECT_EQ(c.white_space, 2u);
  EXPECT_EQ(c.parentheses, 4u);  // ( ) ⟨ ⟩
  EXPECT_EQ(c.hashes, 1u);
  EXPECT_EQ(c.newlines, 1u);
}

TEST(CharClasses, NonAsciiLettersAndBracketsAtEveryOffsetOfAsciiText) {
  // The non-ASCII pass steps over ASCII 16 bytes at a time: an "é" (a letter) and a "⟨" (a
  // bracket) anywhere in 48 ASCII letters must each be counted once, and nothing else.
  for (size_t at = 0; at <= 48; ++at) {
    for (size_t gap = 0; gap <= 20; ++gap) {
      std::string text(48, 'a');
      text.insert(std::min(at + gap, text.size()), "\xE2\x9F\xA8");  // ⟨
      text.insert(at, "\xC3\xA9");                                   // é
      const CharCounts c = count_char_classes(text);
      ASSERT_EQ(c.chars, 50u) << at << " " << gap;
      ASSERT_EQ(c.letters, 49u) << at << " " << gap;
      ASSERT_EQ(c.parentheses, 1u) << at << " " << gap;
      ASSERT_EQ(c.nemo_alnum, 48u) << at << " " << gap;
    }
  }
}

TEST(CharClasses, SimdEqualsTheScalarReferenceOnRandomTextsOfAwkwardSizes) {
  // Every class byte, their neighbours, invalid and multi-byte UTF-8, at sizes around the
  // 16-byte blocks and past 255 blocks (where the byte counters are summed).
  const std::string pieces[] = {"a",
                                "Z",
                                "z",
                                "A",
                                "@",
                                "[",
                                "`",
                                "{",
                                "0",
                                "9",
                                "/",
                                ":",
                                "\n",
                                "\t",
                                "\r",
                                "\b",
                                " ",
                                "\v",
                                "?",
                                "!",
                                ",",
                                ".",
                                "(",
                                ")",
                                "]",
                                "}",
                                "#",
                                "\xC3\xA9",
                                "\xE2\x9F\xA8",
                                "\xE2\x9F\xA9",
                                "\xE6\x97\xA5",
                                "\xF0\x9F\x98\x80",
                                "\x80",
                                "\xFF",
                                "\xC0"};
  std::mt19937 rng(3);
  for (int round = 0; round < 2000; ++round) {
    size_t pieces_wanted = round % 50 == 0 ? 6000 + rng() % 3000 : rng() % 90;
    std::string text;
    for (size_t i = 0; i < pieces_wanted; ++i) text += pieces[rng() % std::size(pieces)];
    ASSERT_EQ(count_char_classes(text), count_char_classes_scalar(text))
        << "round " << round << " size " << text.size();
    // Every offset into the first bytes, so blocks start at every alignment.
    if (round % 100 == 0) {
      for (size_t skip = 1; skip < 17 && skip < text.size(); ++skip) {
        std::string_view rest = std::string_view(text).substr(skip);
        ASSERT_EQ(count_char_classes(rest), count_char_classes_scalar(rest)) << "skip " << skip;
      }
    }
  }
}

}  // namespace
}  // namespace winnow
