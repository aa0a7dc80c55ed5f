#include "text/text_chunker.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/utf8.h"
#include "test_support.h"

namespace winnow {
namespace {

std::vector<std::string_view> chunk(std::string_view text, ChunkLimits limits) {
  std::vector<std::string_view> pieces;
  chunk_text(text, limits, pieces);
  return pieces;
}

size_t words_in(std::string_view text) {
  size_t words = 0;
  bool in_word = false;
  for (char c : text) {
    bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

// Real text of real length: licences, with paragraphs, long sentences and non-ASCII text.
std::string real_text() {
  std::string text = testing::read_file("/usr/share/common-licenses/GPL-3");
  text += "\n\nÉté à Zürich: naïve café — 東京は雨です。大阪は晴れです。\n\n";
  text += testing::read_file("/usr/share/common-licenses/Apache-2.0");
  return text;
}

TEST(TextChunker, PiecesTileTheTextAndStayWithinTheLimitForAwkwardLimits) {
  const std::string text = real_text();
  for (uint64_t max_chars : {1u, 2u, 7u, 50u, 333u, 1000u, 4096u, 100000u}) {
    auto pieces = chunk(text, {max_chars, 0, false});
    std::string joined;
    for (std::string_view piece : pieces) {
      joined += piece;
      EXPECT_LE(count_code_points(piece), max_chars) << max_chars;
      EXPECT_TRUE(is_valid_utf8(piece)) << "a code point was cut, limit " << max_chars;
    }
    EXPECT_EQ(joined, text) << max_chars;
  }
  for (uint64_t max_words : {1u, 3u, 17u, 100u, 250u}) {
    auto pieces = chunk(text, {0, max_words, false});
    std::string joined;
    for (std::string_view piece : pieces) {
      joined += piece;
      EXPECT_LE(words_in(piece), max_words) << max_words;
    }
    EXPECT_EQ(joined, text) << max_words;
  }
}

TEST(TextChunker, PacksWholeParagraphsWhileTheyFit) {
  std::string p1(30, 'a'), p2(30, 'b'), p3(30, 'c');
  std::string text = p1 + "\n\n" + p2 + "\n  \n" + p3;
  auto pieces = chunk(text, {70, 0, false});
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0], p1 + "\n\n" + p2 + "\n  \n");
  EXPECT_EQ(pieces[1], p3);
  // A single line break does not end a paragraph.
  auto lines = chunk(p1 + "\n" + p2, {70, 0, false});
  EXPECT_EQ(lines.size(), 1u);
}

TEST(TextChunker, ALongParagraphIsCutAtSentencesThenWordsThenCodePoints) {
  std::string text =
      "The first sentence is here. The second one follows it! Does a third? Yes.";
  auto sentences = chunk(text, {0, 6, true});
  EXPECT_EQ(sentences, (std::vector<std::string_view>{"The first sentence is here.",
                                                      "The second one follows it!",
                                                      "Does a third? Yes."}));
  auto words = chunk("alpha beta gamma delta", {11, 0, true});
  EXPECT_EQ(words, (std::vector<std::string_view>{"alpha beta", "gamma delta"}));
  auto letters = chunk("abcdefghij", {4, 0, false});
  EXPECT_EQ(letters, (std::vector<std::string_view>{"abcd", "efgh", "ij"}));
  // Multi-byte code points are counted as one and never cut.
  auto cjk = chunk("東京大阪京都", {4, 0, false});
  EXPECT_EQ(cjk, (std::vector<std::string_view>{"東京大阪", "京都"}));
}

TEST(TextChunker, SentencesOfOtherScriptsAreFound) {
  auto pieces = chunk("東京は雨です。大阪は晴れです。京都は曇りです。", {8, 0, true});
  EXPECT_EQ(pieces, (std::vector<std::string_view>{"東京は雨です。", "大阪は晴れです。",
                                                   "京都は曇りです。"}));
}

TEST(TextChunker, StripLeavesNoBlankPiecesAndNoEdges) {
  auto pieces = chunk("  one two  \n\n   \n\n three  ", {0, 2, true});
  EXPECT_EQ(pieces, (std::vector<std::string_view>{"one two", "three"}));
  EXPECT_TRUE(chunk("", {10, 0, false}).empty());
  EXPECT_TRUE(chunk(" \n\n\t ", {10, 0, true}).empty());
  EXPECT_EQ(chunk(" \n\n\t ", {10, 0, false}).size(), 1u);  // tiles even blank text
}

TEST(TextChunker, ATextWithinTheLimitIsOnePiece) {
  const std::string text = real_text();
  auto pieces = chunk(text, {count_code_points(text), 0, false});
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].data(), text.data());
}

TEST(TextChunker, RandomTextsOfAwkwardSizesTile) {
  std::mt19937 rng(11);
  const char* atoms[] = {"a", "bc", " ", "\n", "\n\n", ". ", "é", "東", "!\n", "\t", "word"};
  for (int round = 0; round < 300; ++round) {
    std::string text;
    int n = static_cast<int>(rng() % 200);
    for (int i = 0; i < n; ++i) text += atoms[rng() % std::size(atoms)];
    uint64_t limit = 1 + rng() % 40;
    bool by_words = rng() % 2;
    ChunkLimits limits{by_words ? 0 : limit, by_words ? limit : 0, false};
    std::string joined;
    for (std::string_view piece : chunk(text, limits)) {
      joined += piece;
      if (by_words) {
        EXPECT_LE(words_in(piece), limit);
      } else {
        EXPECT_LE(count_code_points(piece), limit);
      }
    }
    EXPECT_EQ(joined, text) << "round " << round;
  }
}

}  // namespace
}  // namespace winnow
