// has_alphabetic: Unicode's Alphabetic property over a UTF-8 word, as the `regex` module's
// [[:alpha:]] matches it (the expectations are what Python's regex module answers).
#include "text/unicode_alphabetic.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

TEST(UnicodeAlphabetic, LettersLetterNumbersAndVowelSigns) {
  EXPECT_TRUE(has_alphabetic("x1"));
  EXPECT_TRUE(has_alphabetic("é"));
  EXPECT_TRUE(has_alphabetic("Дмитрий"));
  EXPECT_TRUE(has_alphabetic("日本"));
  EXPECT_TRUE(has_alphabetic("ª"));
  EXPECT_TRUE(has_alphabetic("Ⅻ"));         // letter number (Nl): str.isalpha() is False
  EXPECT_TRUE(has_alphabetic("\u3007"));    // 〇 IDEOGRAPHIC NUMBER ZERO (Nl)
  EXPECT_TRUE(has_alphabetic("\u0903"));    // DEVANAGARI SIGN VISARGA (Mc, Other_Alphabetic)
  EXPECT_TRUE(has_alphabetic("12-\u00e9"));  // a letter after ASCII non-letters
}

TEST(UnicodeAlphabetic, DigitsMarksPunctuationAndIllFormedBytes) {
  EXPECT_FALSE(has_alphabetic(""));
  EXPECT_FALSE(has_alphabetic("1234"));
  EXPECT_FALSE(has_alphabetic("_-.,"));
  EXPECT_FALSE(has_alphabetic("\u0661\u0662"));  // Arabic-Indic digits
  EXPECT_FALSE(has_alphabetic("\u0301"));        // COMBINING ACUTE ACCENT
  EXPECT_FALSE(has_alphabetic("\u2014\u2026"));  // — …
  // A lone lead byte is not read as the Latin-1 letter of the same value (Ã).
  EXPECT_FALSE(has_alphabetic("\xc3"));
  EXPECT_FALSE(has_alphabetic("1\xc3 2"));
}

}  // namespace
}  // namespace winnow
