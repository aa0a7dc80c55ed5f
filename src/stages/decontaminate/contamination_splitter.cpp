#include "stages/decontaminate/contamination_splitter.h"

#include <algorithm>

#include "core/utf8.h"

namespace winnow {

namespace {

inline bool is_sentence_end(char c) { return c == '.' || c == '!' || c == '?'; }

// Candidate starts probed per block: their buckets are prefetched together, so the table's
// cache misses overlap.
constexpr size_t kBlock = 32;

}  // namespace

void ContaminationSplitter::reset(std::string_view text) {
  text_ = text;
  normalized_words(text, words_);
  hasher_.reset(words_);
}

std::optional<TaskMatch> ContaminationSplitter::first_match(size_t from) {
  const std::vector<size_t>& lengths = tasks_.lengths;
  const TaskNgramSet& set = tasks_.set;
  if (lengths.empty()) return std::nullopt;
  const size_t n = words_.size();
  // The first whole word at or after `from`, and the word the cut falls in, if any.
  size_t k = static_cast<size_t>(
      std::lower_bound(words_.begin(), words_.end(), from,
                       [](const NormalizedWord& w, size_t at) { return w.begin < at; }) -
      words_.begin());
  if (k > 0 && words_[k - 1].end > from) {
    bool empty = false;
    const NormalizedWord& cut = words_[k - 1];
    uint64_t first = normalized_token_hash(text_.substr(from, cut.end - from), empty);
    if (!empty) {
      // N-grams that start with the cut word: it and the words after it.
      for (size_t length : lengths) {
        if (k + length - 1 > n) continue;
        uint64_t fp = ngram_fingerprint(
            length == 1 ? first : hasher_.hash_with_first(first, k, length), length);
        uint16_t task = 0;
        if (matches(fp, task)) {
          size_t end = length == 1 ? cut.end : words_[k + length - 2].end;
          return TaskMatch{from, end, task, fp};
        }
      }
    }
  }
  // Blocks of starts, pipelined: the fingerprints of the next block are computed and their
  // buckets prefetched before the current block is probed, so the table's cache misses overlap
  // with work instead of stalling it.
  const size_t per_start = lengths.size();
  fingerprints_.resize(2 * kBlock * per_start);
  auto fill = [&](size_t block, uint64_t* out) {
    const size_t stop = std::min(n, block + kBlock);
    for (size_t s = block; s < stop; ++s) {
      for (size_t j = 0; j < per_start; ++j) {
        const size_t length = lengths[j];
        uint64_t& fp = out[(s - block) * per_start + j];
        if (s + length > n) {
          fp = 0;
          continue;
        }
        fp = ngram_fingerprint(hasher_.hash(s, length), length);
        set.prefetch(fp);
      }
    }
  };
  uint64_t* current = fingerprints_.data();
  uint64_t* next = current + kBlock * per_start;
  if (k < n) fill(k, current);
  for (size_t block = k; block < n; block += kBlock) {
    if (block + kBlock < n) fill(block + kBlock, next);
    const size_t stop = std::min(n, block + kBlock);
    for (size_t s = block; s < stop; ++s) {
      for (size_t j = 0; j < per_start; ++j) {
        const uint64_t fp = current[(s - block) * per_start + j];
        if (fp == 0) continue;
        uint16_t task = 0;
        if (matches(fp, task)) {
          return TaskMatch{words_[s].begin, words_[s + lengths[j] - 1].end, task, fp};
        }
      }
    }
    std::swap(current, next);
  }
  return std::nullopt;
}

void ContaminationSplitter::split(std::string_view text, const SplitRules& rules,
                                  std::vector<std::string_view>& pieces,
                                  std::vector<TaskMatch>& matches) {
  pieces.clear();
  matches.clear();
  reset(text);
  const size_t n = text.size();
  const size_t margin = rules.remove_char_each_side;
  size_t from = 0;
  // Code points of the text, and of text[0, from): the text after a cut is measured without
  // counting it again (a document with many matches stays one pass).
  size_t total_points = 0, from_points = 0;
  bool counted = false;
  for (;;) {
    std::optional<TaskMatch> match = first_match(from);
    if (!match) {
      pieces.push_back(text.substr(from));
      return;
    }
    matches.push_back(*match);
    // Before: back `margin` code points from the match, then back to a sentence end; nothing
    // when that runs into the start of the text searched.
    size_t p = match->begin;
    size_t steps = 0;
    while (steps < margin && p > from) {
      do --p;
      while (p > from && is_utf8_continuation(text[p]));
      ++steps;
    }
    if (steps == margin && p > from) {
      while (p > from && !is_sentence_end(text[p])) --p;
      if (p > from) {
        std::string_view before = text.substr(from, p + 1 - from);
        if (count_code_points(before) > rules.min_document_length) pieces.push_back(before);
      }
    }
    // After: on `margin` code points past the match, then on past a sentence end.
    size_t q = match->end;
    for (steps = 0; steps < margin && q < n; ++steps) {
      do ++q;
      while (q < n && is_utf8_continuation(text[q]));
    }
    if (q >= n) return;
    while (q < n && !is_sentence_end(text[q])) ++q;
    if (q + 1 >= n) return;
    if (!counted) total_points = count_code_points(text);
    counted = true;
    from_points += count_code_points(text.substr(from, q + 1 - from));
    from = q + 1;
    if (total_points - from_points <= rules.min_document_length) return;
  }
}

}  // namespace winnow
