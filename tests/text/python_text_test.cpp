#include "text/python_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "text/word_tokenizer.h"

namespace winnow {
namespace {

using ::testing::ElementsAre;

// str.count(needle): non-overlapping, left to right, with std::string_view::find.
size_t reference_count(std::string_view hay, std::string_view needle) {
  size_t count = 0;
  for (size_t at = hay.find(needle); at != std::string_view::npos;
       at = hay.find(needle, at + needle.size()))
    ++count;
  return count;
}

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
  EXPECT_TRUE(is_unicode_punctuation(U'_'));   // Pc
  EXPECT_TRUE(is_unicode_punctuation(U'—'));   // Pd
  EXPECT_TRUE(is_unicode_punctuation(U'「'));  // Ps
  EXPECT_TRUE(is_unicode_punctuation(U'»'));   // Pf
  EXPECT_TRUE(is_unicode_punctuation(U'。'));  // Po
  EXPECT_FALSE(is_unicode_punctuation(U'$'));  // Sc: a symbol, not punctuation
  EXPECT_FALSE(is_unicode_punctuation(U'a'));
  EXPECT_FALSE(is_unicode_punctuation(U'\n'));
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
TEST(PythonText, FindBytesEqualsStringFindOnRandomInputsOfAwkwardSizes) {
  // The SIMD candidate scan against std::string_view::find (the scalar reference): sizes
  // around the 16-byte blocks, needles cut from the haystack (so they occur) or random, small
  // alphabets (so first and last bytes match often), every start position.
  std::mt19937 rng(5);
  for (int round = 0; round < 3000; ++round) {
    const size_t size = rng() % (round % 10 == 0 ? 300 : 70);
    const int alphabet = 1 + static_cast<int>(rng() % (round % 2 ? 3 : 26));
    std::string hay(size, 'a');
    for (char& c : hay) c = static_cast<char>('a' + rng() % alphabet);
    std::string needle;
    const size_t k = 1 + rng() % 20;
    if (size >= k && rng() % 2) {
      needle = hay.substr(rng() % (size - k + 1), k);
    } else {
      needle.resize(k);
      for (char& c : needle) c = static_cast<char>('a' + rng() % alphabet);
    }
    for (size_t from = 0; from <= size + 1; ++from) {
      ASSERT_EQ(find_bytes(hay, needle, from), std::string_view(hay).find(needle, from))
          << "round " << round << " hay '" << hay << "' needle '" << needle << "' from " << from;
    }
    ASSERT_EQ(count_occurrences(hay, needle), reference_count(hay, needle)) << "round " << round;
  }
}

TEST(PythonText, FindBytesStaysExactWhenEveryPositionIsACandidate) {
  // A run of one letter and a needle of that letter ending otherwise: every position passes
  // the first/last byte test only when its last byte is there, so the scan falls back to
  // memmem; the answers stay exact either way.
  std::string hay(100000, 'a');
  hay += "ab";
  std::string needle(500, 'a');
  EXPECT_EQ(find_bytes(hay, needle + "b"), 100001u - 500u);
  EXPECT_EQ(find_bytes(hay, needle), 0u);
  EXPECT_EQ(find_bytes(hay, needle, 99500), 99500u);
  EXPECT_EQ(find_bytes(hay, needle, 99502), std::string_view::npos);
  EXPECT_EQ(count_occurrences(hay, needle), 200u);
  std::string aba;
  for (int i = 0; i < 20000; ++i) aba += "ab";
  EXPECT_EQ(find_bytes(aba, std::string(40, 'a')), std::string_view::npos);
  EXPECT_EQ(find_bytes(aba, "abab" + std::string(300, 'b')), std::string_view::npos);
}

}  // namespace winnow
