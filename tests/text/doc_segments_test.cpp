// DocSegments: NeMo's splits with Python's semantics, the one-pass character counts, exact word
// ids, and the batch cache (shared across stages, invalidated by set_text).
#include "text/doc_segments.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "stages/filter_test_support.h"
#include "text/python_text.h"

namespace winnow {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> strings(DocSegments& d, const std::vector<TextPiece>& pieces) {
  std::vector<std::string> out;
  for (const auto& p : pieces) out.emplace_back(d.piece(p));
  return out;
}

TEST(DocSegments, WordsSplitOnEveryPythonSpace) {
  DocSegments d;
  // \x1c-\x1f, NBSP, EN QUAD, IDEOGRAPHIC SPACE and LINE SEPARATOR are str.isspace(); ZERO
  // WIDTH SPACE (U+200B) is not.
  std::string text =
      "  a\tb\x1c"
      "c\xc2\xa0"
      "d\xe2\x80\x80"
      "e\xe3\x80\x80"
      "f\xe2\x80\xa8"
      "g\xe2\x80\x8bh\n ";
  d.reset(text);
  EXPECT_THAT(strings(d, d.words()), ElementsAre("a", "b", "c", "d", "e", "f", "g\xe2\x80\x8bh"));
  EXPECT_EQ(d.words().back().chars, 3u);
}

TEST(DocSegments, EmptyAndBlankTexts) {
  DocSegments d;
  d.reset("");
  EXPECT_TRUE(d.words().empty());
  EXPECT_TRUE(d.lines().empty());
  EXPECT_EQ(d.paragraphs().size(), 1u);  // "".split("\n\n") == [""]
  EXPECT_EQ(d.chars().chars, 0u);
  d.reset(" \n\t\n");
  EXPECT_TRUE(d.words().empty());
  EXPECT_TRUE(d.lines().empty());
}

TEST(DocSegments, LinesAreNonBlankPiecesParagraphsAreAll) {
  DocSegments d;
  d.reset("one\n\n  \ntwo \n\n\nthree");
  EXPECT_THAT(strings(d, d.lines()), ElementsAre("one", "two ", "three"));
  // split("\n\n"): "one", "  \ntwo ", "\nthree"
  EXPECT_THAT(strings(d, d.paragraphs()), ElementsAre("one", "  \ntwo ", "\nthree"));
  d.reset("no newline at all");
  EXPECT_THAT(strings(d, d.lines()), ElementsAre("no newline at all"));
  EXPECT_THAT(strings(d, d.paragraphs()), ElementsAre("no newline at all"));
}

TEST(DocSegments, CharCountsMatchAByteByByteCount) {
  DocSegments d;
  std::string text = "Ab1 (x)\t#é⟨y⟩\r\n{}[]?!,.日本\b";
  d.reset(text);
  const CharCounts& c = d.chars();
  EXPECT_EQ(c.chars, python_len(text));
  EXPECT_EQ(c.chars, 26u);
  EXPECT_EQ(c.digits, 1u);
  EXPECT_EQ(c.parentheses, 8u);  // ( ) ⟨ ⟩ { } [ ]
  EXPECT_EQ(c.white_space, 5u);  // space \t \r \n \b
  EXPECT_EQ(c.hashes, 1u);
  EXPECT_EQ(c.newlines, 1u);
  EXPECT_EQ(c.letters, 7u);      // A b x é y 日 本
  EXPECT_EQ(c.nemo_alnum, 10u);  // A b 1 x y \n ? ! , .
}

// A reference implementation of the splits, written the slow obvious way.
std::vector<std::string> reference_words(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    const char* start = p;
    uint32_t cp = decode_utf8(p, end);
    if (is_python_space(cp)) {
      if (!current.empty()) out.push_back(current);
      current.clear();
    } else {
      current.append(start, p);
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

TEST(DocSegments, RandomTextsMatchTheReferenceSplit) {
  std::mt19937 rng(5);
  const char* atoms[] = {"a",
                         "bc",
                         " ",
                         "\n",
                         "\t",
                         "\xc2\xa0",
                         "\xe2\x80\x80",
                         "\xe3\x80\x80",
                         "é",
                         "日",
                         "\xe2\x80\xa6",
                         "\x1f",
                         "\xc2\x85",
                         "#",
                         "\xe2\x80\x8b",
                         "\r"};
  for (int round = 0; round < 1000; ++round) {
    // Up to ~400 bytes: several 64-byte blocks, with multi-byte spaces across block edges.
    std::string text;
    int n = static_cast<int>(rng() % 200);
    for (int i = 0; i < n; ++i) text += atoms[rng() % (sizeof(atoms) / sizeof(atoms[0]))];
    DocSegments d;
    d.reset(text);
    auto expected = reference_words(text);
    ASSERT_EQ(strings(d, d.words()), expected) << text;
    for (const auto& w : d.words()) ASSERT_EQ(w.chars, python_len(d.piece(w)));
    ASSERT_EQ(d.chars().chars, python_len(text));
    // Ids: equal words, equal ids; different words, different ids.
    const auto& ids = d.word_ids();
    for (size_t i = 0; i < expected.size(); ++i)
      for (size_t j = 0; j < expected.size(); ++j)
        ASSERT_EQ(ids[i] == ids[j], expected[i] == expected[j]);
  }
}

TEST(DocSegments, LongWordsGetExactIds) {
  DocSegments d;
  d.reset("internationalisation internationalization internationalisation abcdefgh abcdefghi");
  const auto& ids = d.word_ids();
  EXPECT_THAT(ids, ElementsAre(0u, 1u, 0u, 2u, 3u));
}

TEST(DocSegmentsCache, SharedAcrossCallsAndForgottenOnSetText) {
  auto batch = testing::make_text_batch({"one two", "three"});
  DocSegments& first = doc_segments(*batch, 0);
  EXPECT_EQ(first.words().size(), 2u);
  EXPECT_EQ(&doc_segments(*batch, 0), &first);  // the same object: nothing is split twice
  batch->set_text(0, "a b c d");
  EXPECT_EQ(doc_segments(*batch, 0).words().size(), 4u);
  EXPECT_EQ(doc_segments(*batch, 1).words().size(), 1u);
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

TEST(DocSegments, IcuSplitSegmentsUnspacedText) {
  DocSegments d;
  std::string zh = "我们今天去北京。天气很好！";
  d.reset(zh);
  std::vector<std::string> words;
  for (const auto& w : d.words(WordSplit::kIcu)) words.emplace_back(d.piece(w));
  // Dictionary words and punctuation; never one piece for the whole sentence.
  EXPECT_GE(words.size(), 6u);
  EXPECT_THAT(words, ::testing::Contains("北京"));
  EXPECT_THAT(words, ::testing::Contains("。"));
  std::string joined;
  for (const auto& w : words) joined += w;
  EXPECT_EQ(joined, zh);  // no space to skip: the pieces tile the text
  // The white-space split sees one word; both splits are kept side by side.
  EXPECT_EQ(d.words().size(), 1u);
  EXPECT_EQ(d.words(WordSplit::kIcu).size(), words.size());
  // Spaces are skipped, code points counted.
  d.reset("東京 タワー  です");
  words.clear();
  for (const auto& w : d.words(WordSplit::kIcu)) {
    words.emplace_back(d.piece(w));
    EXPECT_EQ(w.chars, python_len(d.piece(w)));
  }
  EXPECT_THAT(words, ::testing::Contains("東京"));
  EXPECT_THAT(words, ::testing::Not(::testing::Contains(" ")));
  d.reset("");
  EXPECT_TRUE(d.words(WordSplit::kIcu).empty());
}

TEST(DocSegments, ComputesEachSplitOnlyWhenAskedAndForgetsOnReset) {
  DocSegments d;
  d.reset("one two\nthree two\n\nfour");
  EXPECT_FALSE(d.computed(DocSegments::kChars));
  EXPECT_FALSE(d.computed(DocSegments::kWords));
  d.chars();
  EXPECT_TRUE(d.computed(DocSegments::kChars));
  EXPECT_FALSE(d.computed(DocSegments::kWords));
  EXPECT_FALSE(d.computed(DocSegments::kLines));
  d.lines();  // uses chars(), nothing else
  EXPECT_TRUE(d.computed(DocSegments::kLines));
  EXPECT_FALSE(d.computed(DocSegments::kWords));
  EXPECT_FALSE(d.computed(DocSegments::kParagraphs));
  d.top_word_ngram(2);  // needs the words and their ids
  EXPECT_TRUE(d.computed(DocSegments::kWords));
  EXPECT_TRUE(d.computed(DocSegments::kWordIds));
  EXPECT_TRUE(d.ngrams_started());
  EXPECT_FALSE(d.computed(DocSegments::kWords, WordSplit::kIcu));
  EXPECT_FALSE(d.computed(DocSegments::kTokens));
  d.reset("another text");
  EXPECT_FALSE(d.computed(DocSegments::kChars));
  EXPECT_FALSE(d.computed(DocSegments::kWords));
  EXPECT_FALSE(d.ngrams_started());
}

}  // namespace
}  // namespace winnow
