// ngram_stats: the fast paths (packed keys, repeat levels) against the rules of filters.md
// written the slow obvious way, on random id sequences with many repeats, plus hand cases.
#include "text/ngram_stats.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace winnow {
namespace {

std::vector<TextPiece> pieces_with_lengths(const std::vector<uint32_t>& lengths) {
  std::vector<TextPiece> out;
  uint32_t at = 0;
  for (uint32_t len : lengths) {
    out.push_back({at, len, len});
    at += len + 1;
  }
  return out;
}

std::vector<uint32_t> gram(const std::vector<uint32_t>& ids, size_t i, size_t n) {
  return {ids.begin() + static_cast<long>(i), ids.begin() + static_cast<long>(i + n)};
}

// filters.md, literally: walk the n-grams; a repeat adds the lengths of its words not covered
// by the previous duplicate plus min(n - overlap, n - 1) spaces, then covers n - 1 positions.
size_t reference_nemo_dup(const std::vector<uint32_t>& ids, const std::vector<TextPiece>& w,
                          size_t n) {
  if (ids.size() < n) return 0;
  std::set<std::vector<uint32_t>> seen;
  size_t total = 0, overlap = 0;
  for (size_t i = 0; i + n <= ids.size(); ++i) {
    auto g = gram(ids, i, n);
    if (!seen.insert(g).second) {
      for (size_t k = overlap; k < n; ++k) total += w[i + k].chars;
      total += std::min(n - overlap, n - 1);
      overlap = n;
    }
    if (overlap) --overlap;
  }
  return total;
}

// datatrove's find_all_duplicate, literally.
size_t reference_datatrove_dup(const std::vector<uint32_t>& ids, const std::vector<TextPiece>& w,
                               size_t n) {
  std::set<std::vector<uint32_t>> unique;
  size_t total = 0, i = 0;
  while (ids.size() >= n && i < ids.size() - n + 1) {
    auto g = gram(ids, i, n);
    if (unique.count(g)) {
      for (size_t k = 0; k < n; ++k) total += w[i + k].chars;
      i += n;
    } else {
      unique.insert(g);
      ++i;
    }
  }
  return total;
}

TopNgram reference_top(const std::vector<uint32_t>& ids, size_t n) {
  std::map<std::vector<uint32_t>, std::pair<size_t, size_t>> counts;  // gram -> (count, first)
  std::vector<std::vector<uint32_t>> order;
  for (size_t i = 0; i + n <= ids.size(); ++i) {
    auto g = gram(ids, i, n);
    auto [it, fresh] = counts.try_emplace(g, 0, i);
    if (fresh) order.push_back(g);
    ++it->second.first;
  }
  TopNgram top;
  for (const auto& g : order) {  // the first one met wins ties
    if (counts[g].first > top.count) top = {counts[g].second, counts[g].first};
  }
  return top;
}

// One ladder started at n (or lo) and asked once, as a single filter would.
TopNgram top_ngram(const std::vector<uint32_t>& ids, size_t n) {
  NgramLadder ladder;
  ladder.reset(ids, n);
  return ladder.top(n);
}
std::vector<uint8_t> repeat_levels(const std::vector<uint32_t>& ids, size_t lo, size_t hi) {
  NgramLadder ladder;
  ladder.reset(ids, lo);
  return ladder.levels(hi);
}

TEST(NgramStats, HandWorkedDuplicateCount) {
  // words: a b c a b c a b, lengths 1..: every word 1 code point. n = 3.
  // n-grams: abc bca cab abc(dup at 3) bca(dup at 4) cab(dup at 5).
  // i=3: overlap 0 -> 3 words + 2 spaces = 5; i=4: overlap 2 -> 1 word + 1 space = 2;
  // i=5: overlap 2 -> 2. Total 9 = "abc a b c"... the text "a b c a b c a b" from index 6.
  std::vector<uint32_t> ids = {0, 1, 2, 0, 1, 2, 0, 1};
  auto w = pieces_with_lengths(std::vector<uint32_t>(8, 1));
  std::vector<uint8_t> levels = repeat_levels(ids, 3, 10);
  EXPECT_EQ(nemo_duplicate_ngram_chars(levels, w, 3), 9u);
  EXPECT_EQ(reference_nemo_dup(ids, w, 3), 9u);
  // datatrove: abc, bca, cab new; abc at 3 seen -> +3, jump to 6: "ab" has no 3-gram. Total 3.
  EXPECT_EQ(datatrove_duplicate_ngram_chars(ids, w, 3), 3u);
  EXPECT_EQ(levels[3], 5u);  // "a b c a b" at 3 also starts at 0
  EXPECT_EQ(levels[0], 0u);
}

TEST(NgramStats, TopNgramTiesGoToTheFirstMet) {
  // b c occurs twice, a b twice: "a b" is met first.
  std::vector<uint32_t> ids = {0, 1, 2, 0, 1, 2};
  TopNgram top = top_ngram(ids, 2);
  EXPECT_EQ(top.count, 2u);
  EXPECT_EQ(top.position, 0u);
  // A later n-gram that overtakes wins.
  ids = {0, 1, 2, 3, 2, 3, 2, 3};
  top = top_ngram(ids, 2);
  EXPECT_EQ(top.count, 3u);
  EXPECT_EQ(top.position, 2u);
  EXPECT_EQ(top_ngram({0}, 2).count, 0u);
}

// A random word sequence: ids from a small alphabet (long repeats) or, every `huge_every`
// rounds, offset to huge values (the hashed, unpacked keys, and no dense-id counting), with
// word lengths of 1..max_chars.
struct RandomWords {
  std::vector<uint32_t> ids;
  std::vector<TextPiece> words;
};
RandomWords random_words(std::mt19937& rng, int round, size_t max_length, uint32_t small,
                         uint32_t large, int huge_every, uint32_t max_chars) {
  RandomWords r;
  const size_t length = rng() % max_length;
  const uint32_t alphabet = 1 + rng() % (round % 3 == 0 ? small : large);
  const bool huge = round % huge_every == 0;
  r.ids.resize(length);
  for (auto& id : r.ids) id = (rng() % alphabet) + (huge ? 0x7FFFFF00u : 0u);
  std::vector<uint32_t> lengths(length);
  for (auto& l : lengths) l = 1 + rng() % max_chars;
  r.words = pieces_with_lengths(lengths);
  return r;
}

TEST(NgramStats, RandomSequencesMatchTheReferences) {
  std::mt19937 rng(11);
  for (int round = 0; round < 400; ++round) {
    auto [ids, w] = random_words(rng, round, 80, 3, 12, 4, 7);
    std::vector<uint8_t> levels = repeat_levels(ids, 2, 12);
    for (size_t n = 2; n <= 12; ++n) {
      ASSERT_EQ(nemo_duplicate_ngram_chars(levels, w, n), reference_nemo_dup(ids, w, n))
          << "round " << round << " n " << n;
      ASSERT_EQ(datatrove_duplicate_ngram_chars(ids, w, n), reference_datatrove_dup(ids, w, n))
          << "round " << round << " n " << n;
      TopNgram fast = top_ngram(ids, n), slow = reference_top(ids, n);
      ASSERT_EQ(fast.count, slow.count) << "round " << round << " n " << n;
      ASSERT_EQ(fast.position, slow.position) << "round " << round << " n " << n;
    }
  }
}

TEST(NgramStats, OneLadderClimbingFromTwoMatchesTheReferencesAtEverySize) {
  // The path NeMo's chain takes: one ladder per document, top n-grams asked first, then the
  // duplicate n-gram levels, each size counted only where the size below repeats.
  std::mt19937 rng(29);
  NgramLadder ladder;  // reused across documents, as DocSegments reuses it
  for (int round = 0; round < 400; ++round) {
    auto [ids, w] = random_words(rng, round, 90, 2, 9, 5, 5);
    const size_t lo = 1 + round % 3;
    ladder.reset(ids, lo);
    for (size_t n = lo; n <= 4; ++n) {
      TopNgram fast = ladder.top(n), slow = reference_top(ids, n);
      ASSERT_EQ(fast.count, slow.count) << "round " << round << " n " << n;
      ASSERT_EQ(fast.position, slow.position) << "round " << round << " n " << n;
    }
    for (size_t n = 5; n <= 12; ++n) {
      ASSERT_EQ(nemo_duplicate_ngram_chars(ladder.levels(n), w, n), reference_nemo_dup(ids, w, n))
          << "round " << round << " n " << n;
      ASSERT_EQ(datatrove_duplicate_ngram_chars(ids, w, n, &ladder.repeat_spans(n)),
                reference_datatrove_dup(ids, w, n))
          << "round " << round << " n " << n;
    }
    // Asked again below where it stands: the sizes already climbed are kept.
    TopNgram again = ladder.top(lo), slow = reference_top(ids, lo);
    ASSERT_EQ(again.count, slow.count) << "round " << round;
    ASSERT_EQ(again.position, slow.position) << "round " << round;
  }
}

TEST(NgramStats, PieceRepetitionComparesExactStrings) {
  std::string text = "x\ny\nx\nX\nx ";
  std::vector<TextPiece> pieces = {{0, 1, 1}, {2, 1, 1}, {4, 1, 1}, {6, 1, 1}, {8, 2, 2}};
  PieceRepetition r = piece_repetition(text, pieces);
  EXPECT_EQ(r.pieces, 5u);
  EXPECT_EQ(r.distinct, 4u);  // x, y, X, "x " (no normalisation)
  EXPECT_EQ(r.chars, 6u);
  EXPECT_EQ(r.distinct_chars, 5u);
}

}  // namespace
}  // namespace winnow
