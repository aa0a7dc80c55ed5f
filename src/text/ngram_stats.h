#pragma once
// Repetition statistics over pieces and word n-grams, the exact counting rules of NeMo Curator's
// and datatrove's repetition filters (filters.md). Words are compared through their dense ids
// (DocSegments::word_ids), so an n-gram is a run of integers; hash tables are reused per thread.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "text/text_piece.h"

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

// Word n-gram statistics for the sizes lo, lo + 1, ..., computed one size at a time and only as
// far as asked. Size m is counted only at the positions whose (m-1)-gram occurs more than once:
// an n-gram whose prefix is unique is itself unique, so every n-gram that occurs twice is
// counted at all of its positions, and the rest are known to occur once. In ordinary text the
// sizes after the first cost a fraction of it, which is why NeMo's chain (top 2-, 3-, 4-grams,
// then duplicate 5- to 10-grams) climbs one ladder per document instead of making nine passes.
// Exact: the counts are those of every n-gram of the text (tested against direct counting).
class NgramLadder {
 public:
  // Starts a ladder at size lo (1 <= lo <= 255) over `ids`, which must outlive it.
  void reset(const std::vector<uint32_t>& ids, size_t lo);
  // Until the next reset, started() is false; the buffers are kept for reuse.
  void forget() { ids_ = nullptr; }
  // forget(), and free oversized buffers (the ladder is pooled with its document's segments).
  void trim();
  bool started() const { return ids_ != nullptr; }
  size_t lo() const { return lo_; }
  // The top n-gram of size n, lo <= n <= 255 (climbing to n if needed).
  TopNgram top(size_t n);
  // For every position i: the largest m in [lo, hi] whose m-gram at i also starts at an
  // earlier position, 0 when none (climbing to hi; hi <= 255). The vector holds at least the
  // sizes up to hi, so `levels(hi)[i] >= n` answers "seen before" for any lo <= n <= hi.
  const std::vector<uint8_t>& levels(size_t hi);
  // For every position i: the largest m in [lo, hi] whose m-gram at i occurs at least twice
  // (anywhere in the text), 0 when none (climbing to hi). `repeat_spans(hi)[i] < n`: the n-gram
  // at i is unique, so a walk that looks n-grams up (datatrove's) can pass it by.
  const std::vector<uint8_t>& repeat_spans(size_t hi);

 private:
  void climb();              // computes size next_
  void climb_to(size_t hi);  // climbs while a size up to hi can still repeat
  const std::vector<uint32_t>* ids_ = nullptr;
  size_t lo_ = 0, next_ = 0;
  int bits_ = 1;                     // bit width of the largest id (packed n-gram keys)
  std::vector<uint32_t> positions_;  // where size next_ is counted
  std::vector<uint32_t> next_positions_, slots_;
  // Per position counted at the size below next_: the table slot its n-gram took there (the
  // class of equal n-grams that keys the next size).
  std::vector<uint32_t> prefix_slots_;
  std::vector<TopNgram> tops_;  // per size from lo
  std::vector<uint8_t> levels_, spans_;
};

// NeMo's RepeatingDuplicateNGrams numerator: walking the n-grams in order, each one seen before
// (levels[i] >= n, from NgramLadder::levels(hi), lo <= n <= hi) adds the code points of its words
// not covered by the previous duplicate plus the spaces between them (min(n - overlap, n - 1)); the
// next n - 1 positions count as covered.
// With `spaces` false (words segmented out of unspaced text) no spaces are added.
size_t nemo_duplicate_ngram_chars(const std::vector<uint8_t>& levels,
                                  const std::vector<TextPiece>& words, size_t n,
                                  bool spaces = true);

// datatrove's find_all_duplicate: walking from the start, an n-gram already seen adds the code
// points of its words (joined without spaces) and the walk jumps n words; otherwise it is
// remembered and the walk steps one word. With `spans` (NgramLadder::repeat_spans covering n)
// the n-grams that occur once are stepped over without a lookup: remembering them changes
// nothing, as they never come again.
size_t datatrove_duplicate_ngram_chars(const std::vector<uint32_t>& ids,
                                       const std::vector<TextPiece>& words, size_t n,
                                       const std::vector<uint8_t>* spans = nullptr);

}  // namespace winnow
