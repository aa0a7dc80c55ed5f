#include "text/word_diff.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "test_support.h"

namespace winnow {
namespace {

using testing::kSource;
using testing::run_command;
using testing::TempDir;

// The words each side of `diff` shows, rebuilt from its runs: A's from kSame and kOnlyA runs,
// B's from kSame and kOnlyB runs; kSame runs must pair equal words.
void expect_runs_rebuild_both(const WordDiff& diff) {
  std::vector<std::string_view> a, b;
  size_t same = 0;
  for (const DiffRun& run : diff.runs) {
    if (run.kind == DiffKind::kSame) {
      ASSERT_EQ(run.a_end - run.a_begin, run.b_end - run.b_begin);
      for (uint32_t i = 0; i < run.a_end - run.a_begin; ++i) {
        EXPECT_EQ(diff.a_words[run.a_begin + i], diff.b_words[run.b_begin + i]);
      }
      same += run.a_end - run.a_begin;
    }
    if (run.kind != DiffKind::kOnlyB) {
      ASSERT_EQ(run.a_begin, a.size());
      for (uint32_t i = run.a_begin; i < run.a_end; ++i) a.push_back(diff.a_words[i]);
    }
    if (run.kind != DiffKind::kOnlyA) {
      ASSERT_EQ(run.b_begin, b.size());
      for (uint32_t j = run.b_begin; j < run.b_end; ++j) b.push_back(diff.b_words[j]);
    }
  }
  EXPECT_EQ(a, diff.a_words);
  EXPECT_EQ(b, diff.b_words);
  EXPECT_EQ(same, diff.same_words);
}

std::string marked(const WordDiff& diff, DiffKind kind) {
  std::string out;
  for (const DiffRun& run : diff.runs) {
    if (run.kind != kind) continue;
    const auto& words = kind == DiffKind::kOnlyB ? diff.b_words : diff.a_words;
    uint32_t begin = kind == DiffKind::kOnlyB ? run.b_begin : run.a_begin;
    uint32_t end = kind == DiffKind::kOnlyB ? run.b_end : run.a_end;
    for (uint32_t i = begin; i < end; ++i) out += std::string(words[i]) + " ";
  }
  return out;
}

TEST(WordDiff, HandDerivedReplacementInsertionAndDeletion) {
  // A → B: "cat" becomes "dog", "very" is inserted, "today" is deleted; 5 words the same.
  WordDiff diff = word_diff("the cat sat on the mat today", "the dog sat on the  very\nmat");
  expect_runs_rebuild_both(diff);
  EXPECT_EQ(marked(diff, DiffKind::kOnlyA), "cat today ");
  EXPECT_EQ(marked(diff, DiffKind::kOnlyB), "dog very ");
  EXPECT_EQ(diff.same_words, 5u);
  EXPECT_FALSE(diff.approximate);
  EXPECT_FALSE(diff.cut);
}

TEST(WordDiff, EmptyAndIdenticalTexts) {
  WordDiff same = word_diff("a b c", " a\tb c ");
  ASSERT_EQ(same.runs.size(), 1u);
  EXPECT_EQ(same.runs[0].kind, DiffKind::kSame);
  EXPECT_EQ(same.same_words, 3u);
  WordDiff added = word_diff("", "x y");
  ASSERT_EQ(added.runs.size(), 1u);
  EXPECT_EQ(added.runs[0].kind, DiffKind::kOnlyB);
  EXPECT_TRUE(word_diff("", "").runs.empty());
}

// Random word sequences over a small vocabulary (many repeats: many equal-length LCS choices):
// the diff rebuilds both sides and its "same" words are as many as Python's LCS.
TEST(WordDiff, SameWordsAreALongestCommonSubsequenceAsPythonFindsIt) {
  std::mt19937_64 rng(38);
  const char* vocabulary[] = {"a", "b", "c", "d", "e", "f"};
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int t = 0; t < 60; ++t) {
    auto text = [&](size_t n) {
      std::string s;
      for (size_t i = 0; i < n; ++i) s += std::string(vocabulary[rng() % 6]) + " ";
      return s;
    };
    std::string a = text(rng() % 41), b;
    if (t % 2 == 0) {
      b = text(rng() % 37);
    } else {  // a near-duplicate: a few words of A changed, dropped or added
      std::istringstream in(a);
      for (std::string w; in >> w;) {
        int r = static_cast<int>(rng() % 10);
        if (r == 0) continue;
        b += (r == 1 ? std::string(vocabulary[rng() % 6]) : w) + " ";
        if (r == 2) b += "z ";
      }
    }
    pairs.emplace_back(a, b);
  }
  TempDir dir;
  std::string input;
  for (const auto& [a, b] : pairs) input += a + "\t" + b + "\n";
  testing::write_file(dir.file("pairs.tsv"), input);
  std::string output;
  ASSERT_EQ(run_command("python3 " + kSource + "/tests/text/word_diff_reference.py < " +
                            dir.file("pairs.tsv"),
                        &output),
            0);
  std::istringstream expected(output);
  for (const auto& [a, b] : pairs) {
    size_t lcs = 0;
    ASSERT_TRUE(expected >> lcs);
    WordDiff diff = word_diff(a, b);
    expect_runs_rebuild_both(diff);
    EXPECT_EQ(diff.same_words, lcs) << a << " | " << b;
  }
}

TEST(WordDiff, BoundsGiveAnApproximateOrCutDiffThatStillRebuildsBothSides) {
  WordDiff approximate = word_diff("p a b c d e q", "p v w x y z q", 4000, 3);
  expect_runs_rebuild_both(approximate);
  EXPECT_TRUE(approximate.approximate);
  EXPECT_EQ(approximate.same_words, 2u);  // the common prefix and suffix
  WordDiff cut = word_diff("one two three four", "one two three five", 3);
  EXPECT_TRUE(cut.cut);
  EXPECT_EQ(cut.a_words.size(), 3u);
  EXPECT_EQ(cut.same_words, 3u);
}

}  // namespace
}  // namespace winnow
