#pragma once
// A word-level diff of two texts, for the run report's near-duplicate pairs: the texts are cut
// into words (runs of non-whitespace), the common prefix and suffix are set aside, and the rest
// is diffed with Myers' O((N+M)·D) algorithm, which finds a shortest edit script (so the words
// marked "same" are a longest common subsequence). Cost is bounded twice: each side is cut to
// `max_words` words, and past `max_edits` edits the middle left is given as one replacement
// (the result says so) instead of searching further.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace winnow {

enum class DiffKind : uint8_t { kSame, kOnlyA, kOnlyB };

// A run of words of one kind: [a_begin, a_end) of A's words and [b_begin, b_end) of B's. A
// kSame run covers as many words on both sides; kOnlyA only A's, kOnlyB only B's.
struct DiffRun {
  DiffKind kind = DiffKind::kSame;
  uint32_t a_begin = 0, a_end = 0, b_begin = 0, b_end = 0;
};

struct WordDiff {
  std::vector<std::string_view> a_words, b_words;  // views into the texts given
  std::vector<DiffRun> runs;                       // in order; consecutive runs differ in kind
  size_t same_words = 0;                           // words in kSame runs
  bool cut = false;          // a text had more than max_words words: the rest is not shown
  bool approximate = false;  // more than max_edits edits: the middle is one replacement
};

// Words of `text`: maximal runs of bytes other than ASCII whitespace.
std::vector<std::string_view> split_words(std::string_view text, size_t max_words);

WordDiff word_diff(std::string_view a, std::string_view b, size_t max_words = 4000,
                   size_t max_edits = 500);

}  // namespace winnow
