#include "text/python_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "text/word_tokenizer.h"

namespace winnow {
namespace {

using ::testing::ElementsAre;

TEST(PythonText, LenStripAndSplitlines) {
  EXPECT_EQ(python_len(""), 0u);
  EXPECT_EQ(python_len("héllo 日本 😀"), 10u);
  EXPECT_EQ(python_strip("\xe3\x80\x80 a b\xc2\xa0\n"), "a b");
  EXPECT_EQ(python_lstrip("  a "), "a ");
  EXPECT_EQ(python_rstrip("  a \x1f"), "  a");
  std::vector<std::string_view> lines;
  python_splitlines(
      "a\r\nb\rc\x0b"
      "d\xe2\x80\xa8"
      "e\n\nf\n",
      lines);
  EXPECT_THAT(lines, ElementsAre("a", "b", "c", "d", "e", "", "f"));
  python_splitlines("", lines);
  EXPECT_TRUE(lines.empty());
}

TEST(PythonText, CountAndFind) {
  EXPECT_EQ(count_occurrences("aaaa", "aa"), 2u);  // non-overlapping, as str.count
  EXPECT_EQ(count_occurrences("a b a b a", "a b"), 2u);
  EXPECT_EQ(find_bytes("hello world", "world"), 6u);
  EXPECT_EQ(find_bytes("hello", "xyz"), std::string_view::npos);
  EXPECT_EQ(find_bytes("ab", "b", 1), 1u);
}

TEST(PythonText, CharacterClasses) {
  EXPECT_TRUE(is_python_alpha(U'é'));
  EXPECT_TRUE(is_python_alpha(U'日'));
  EXPECT_FALSE(is_python_alpha(U'٣'));  // a digit
  EXPECT_TRUE(is_sentence_terminal(U'。'));
  EXPECT_TRUE(is_sentence_terminal(U'?'));
  EXPECT_FALSE(is_sentence_terminal(U','));
  EXPECT_TRUE(is_punctuation_or_symbol(U'—'));
  EXPECT_TRUE(is_punctuation_or_symbol(U'$'));
  EXPECT_FALSE(is_punctuation_or_symbol(U'a'));
}

std::vector<std::string> tokens(const std::string& text) {
  std::vector<TextPiece> pieces;
  word_tokenize(text, pieces);
  std::vector<std::string> out;
  for (const auto& p : pieces) out.push_back(text.substr(p.begin, p.bytes));
  return out;
}

TEST(WordTokenizer, TreebankLikeSplits) {
  EXPECT_THAT(tokens("Hello, world. Don't stop!"),
              ElementsAre("Hello", ",", "world", ".", "Do", "n't", "stop", "!"));
  EXPECT_THAT(tokens("\"Quoted\" (text) costs $5, 1,000 at 10:30..."),
              ElementsAre("\"", "Quoted", "\"", "(", "text", ")", "costs", "$", "5", ",", "1,000",
                          "at", "10:30", "..."));
  EXPECT_THAT(tokens("U.S. e.g. end."), ElementsAre("U.S.", "e.g.", "end", "."));
  EXPECT_THAT(tokens("#tag a--b it's"), ElementsAre("#", "tag", "a", "--", "b", "it", "'s"));
  EXPECT_TRUE(tokens("").empty());
  EXPECT_THAT(tokens("日本語 テキスト"), ElementsAre("日本語", "テキスト"));
}

}  // namespace
}  // namespace winnow
