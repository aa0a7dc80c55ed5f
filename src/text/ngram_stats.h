#pragma once
// Repetition statistics over pieces and word n-grams, the exact counting rules of NeMo Curator's
// and datatrove's repetition filters (filters.md). Words are compared through their dense ids
// (DocSegments::word_ids), so an n-gram is a run of integers; hash tables are reused per thread.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "text/doc_segments.h"

namespace winnow {

// Pieces (lines, paragraphs) compared as exact strings.
struct PieceRepetition {
  size_t pieces = 0;
  size_t distinct = 0;
  size_t chars = 0;           // code points in all pieces
  size_t distinct_chars = 0;  // code points in the distinct pieces (first occurrences)
};
PieceRepetition piece_repetition(std::string_view text, const std::vector<TextPiece>& pieces);
// The same over string views (datatrove's own splits).
PieceRepetition piece_repetition(const std::vector<std::string_view>& pieces);

// The most frequent n-gram of `ids` (the first one met among equally frequent ones): its first
// position and how often it occurs. count == 0 when there are fewer than n ids.
struct TopNgram {
  size_t position = 0;
  size_t count = 0;
};
TopNgram top_ngram(const std::vector<uint32_t>& ids, size_t n);

// For every position i: the largest m in [lo, hi] such that the m-gram starting at i also
// starts at an earlier position (0 when none). "Seen before" for every n-gram size of a chain at
// once: level m is only computed for positions whose (m-1)-gram occurs twice, so in ordinary
// text the levels above the first cost little. hi <= 255.
void repeat_levels(const std::vector<uint32_t>& ids, size_t lo, size_t hi,
                   std::vector<uint8_t>& level);

// NeMo's RepeatingDuplicateNGrams numerator: walking the n-grams in order, each one seen before
// (levels[i] >= n, from repeat_levels with lo <= n <= hi) adds the code points of its words not
// covered by the previous duplicate plus the spaces between them (min(n - overlap, n - 1)); the
// next n - 1 positions count as covered.
// With `spaces` false (words segmented out of unspaced text) no spaces are added.
size_t nemo_duplicate_ngram_chars(const std::vector<uint8_t>& levels,
                                  const std::vector<TextPiece>& words, size_t n,
                                  bool spaces = true);

// datatrove's find_all_duplicate: walking from the start, an n-gram already seen adds the code
// points of its words (joined without spaces) and the walk jumps n words; otherwise it is
// remembered and the walk steps one word.
size_t datatrove_duplicate_ngram_chars(const std::vector<uint32_t>& ids,
                                       const std::vector<TextPiece>& words, size_t n);

}  // namespace winnow
