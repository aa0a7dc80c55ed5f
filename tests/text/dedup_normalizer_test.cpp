#include "text/dedup_normalizer.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

std::string words(std::string_view text) {
  std::string out;
  normalize_for_word_shingles(text, out);
  return out;
}

std::string lower(std::string_view text) {
  std::string out;
  lower_and_collapse_whitespace(text, out);
  return out;
}

TEST(DedupNormalizer, WordShingleNormalisationLikeDatatrove) {
  EXPECT_EQ(words("Hello, World!"), "hello world");
  EXPECT_EQ(words("  Naïve  CAFÉ\t\u00A0résumé  "), "naive cafe resume");
  EXPECT_EQ(words("Call 555-1234 now"), "call 0000000 now");
  EXPECT_EQ(words("Ünïcödé «quotes» — dash"), "unicode quotes dash");
  EXPECT_EQ(words("a+b=c"), "a+b=c");  // symbols are not punctuation
  EXPECT_EQ(words("٣ Arabic-Indic digit"), "0 arabicindic digit");
  EXPECT_EQ(words(""), "");
}

TEST(DedupNormalizer, LowerAndCollapseWhitespace) {
  EXPECT_EQ(lower("  The\tQuick\n\nBROWN  fox "), "the quick brown fox");
  EXPECT_EQ(lower("ÉCOLE Straße"), "école straße");
  EXPECT_EQ(lower("same"), lower("SAME  "));
}

}  // namespace
}  // namespace winnow
