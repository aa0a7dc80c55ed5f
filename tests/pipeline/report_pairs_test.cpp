#include "pipeline/report_pairs.h"

#include <gtest/gtest.h>

#include <regex>

namespace winnow {
namespace {

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

ReportPair text_pair(const std::string& survivor, const std::string& removed) {
  ReportPair pair;
  pair.step = "fuzzy_dedup";
  pair.measure = "Jaccard";
  pair.value = 0.8125;
  pair.survivor = {survivor, "the quick brown fox jumps over the lazy dog", ""};
  pair.removed = {removed, "the quick red fox jumps over the <lazy> dog today", ""};
  return pair;
}

TEST(ReportPairs, TextPairSideBySideWithTheDifferingWordsMarked) {
  std::string html = pair_section({text_pair("doc-1", "doc-2")}, 1 << 20);
  EXPECT_NE(html.find("<h3>fuzzy_dedup</h3>"), std::string::npos);
  EXPECT_NE(html.find("data-survivor=\"doc-1\" data-removed=\"doc-2\""), std::string::npos);
  EXPECT_NE(html.find("Jaccard 0.8125"), std::string::npos);
  // Hand-derived: "brown lazy" only in the kept text, "red <lazy> today" only in the removed one
  // (escaped), the rest shared.
  EXPECT_NE(html.find("<mark class=\"a\">brown</mark>"), std::string::npos);
  EXPECT_NE(html.find("<mark class=\"a\">lazy</mark>"), std::string::npos);
  EXPECT_NE(html.find("<mark class=\"b\">red</mark>"), std::string::npos);
  EXPECT_NE(html.find("<mark class=\"b\">&lt;lazy&gt;</mark>"), std::string::npos);
  EXPECT_NE(html.find("<mark class=\"b\">today</mark>"), std::string::npos);
  EXPECT_EQ(count_of(html, "<mark"), 5u);
}

TEST(ReportPairs, LongSharedRunsAreShortenedToTheirEnds) {
  ReportPair pair = text_pair("a", "b");
  std::string shared;
  for (int i = 0; i < 100; ++i) shared += "w" + std::to_string(i) + " ";
  pair.survivor.text = shared + "end";
  pair.removed.text = shared + "finish";
  std::string html = pair_section({pair}, 1 << 20);
  // 100 shared words: 12 at each end shown, 76 counted (on each side).
  EXPECT_EQ(count_of(html, "[… 76 words the same …]"), 2u);
  EXPECT_NE(html.find("w11 <span"), std::string::npos);
  EXPECT_EQ(html.find("w12 "), std::string::npos);
  EXPECT_NE(html.find("w88 "), std::string::npos);
}

TEST(ReportPairs, PicturePairsAreGroupsSurvivorFirst) {
  std::vector<ReportPair> pairs;
  for (const char* removed : {"copy-1", "copy-2"}) {
    ReportPair p;
    p.step = "image_dedup";
    p.measure = "Hamming distance";
    p.value = 3;
    p.survivor = {"original", "", std::string(300, 'x')};
    p.removed = {removed, "", std::string(200, 'y')};
    pairs.push_back(p);
  }
  std::string html = pair_section(pairs, 1 << 20);
  EXPECT_EQ(count_of(html, "<div class=\"dupgroup\""), 1u);
  std::regex order(
      "data-survivor=\"original\"><figure class=\"survivor\"><img class=\"thumb\" "
      "alt=\"original\"[^]*data-removed=\"copy-1\"[^]*data-removed=\"copy-2\"");
  EXPECT_TRUE(std::regex_search(html, order));
  EXPECT_EQ(count_of(html, "Hamming distance 3"), 2u);
}

TEST(ReportPairs, StaysUnderItsBudgetAndSaysHowManyWentOut) {
  std::vector<ReportPair> pairs;
  for (int i = 0; i < 40; ++i) pairs.push_back(text_pair("s" + std::to_string(i), "r"));
  const std::string all = pair_section(pairs, 1 << 20);
  EXPECT_EQ(count_of(all, "<div class=\"pair\""), 40u);
  const size_t budget = all.size() / 3;
  const std::string some = pair_section(pairs, budget);
  EXPECT_LE(some.size(), budget);
  const size_t shown = count_of(some, "<div class=\"pair\"");
  EXPECT_GT(shown, 5u);
  EXPECT_LT(shown, 20u);
  EXPECT_NE(some.find(std::to_string(40 - shown) + " pair(s) left out"), std::string::npos);
  EXPECT_TRUE(pair_section({}, 1 << 20).empty());
}

}  // namespace
}  // namespace winnow
