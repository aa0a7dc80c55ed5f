#include "text/word_diff.h"

#include <algorithm>

namespace winnow {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

using Words = std::vector<std::string_view>;

// One word's fate, in order; merged into runs at the end.
struct Step {
  DiffKind kind;
  uint32_t a, b;  // the word's index in A (kSame, kOnlyA) and in B (kSame, kOnlyB)
};

// Myers' forward search over a[lo_a, hi_a) and b[lo_b, hi_b), keeping V after every round for
// the walk back. Returns the edit count, or -1 past max_edits.
long myers_search(const Words& a, const Words& b, size_t lo_a, size_t hi_a, size_t lo_b,
                  size_t hi_b, long max_edits, std::vector<std::vector<long>>& trace) {
  const long n = static_cast<long>(hi_a - lo_a), m = static_cast<long>(hi_b - lo_b);
  const long bound = std::min(n + m, max_edits);
  const long offset = bound + 1;
  std::vector<long> v(static_cast<size_t>(2 * bound + 3), 0);
  for (long d = 0; d <= bound; ++d) {
    trace.push_back(v);  // V as round d finds it
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                   ? v[offset + k + 1]       // down: a word of B
                   : v[offset + k - 1] + 1;  // right: a word of A
      long y = x - k;
      while (x < n && y < m && a[lo_a + x] == b[lo_b + y]) ++x, ++y;
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return -1;
}

// Walks the trace back from (n, m), appending the steps in reverse order.
void myers_walk_back(size_t lo_a, size_t lo_b, long n, long m, long edits,
                     const std::vector<std::vector<long>>& trace, std::vector<Step>& reversed) {
  const long offset = static_cast<long>(trace.front().size() - 3) / 2 + 1;
  long x = n, y = m;
  for (long d = edits; d >= 0; --d) {
    const std::vector<long>& v = trace[static_cast<size_t>(d)];
    const long k = x - y;
    const long prev_k =
        (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1;
    const long prev_x = v[offset + prev_k], prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      --x, --y;
      reversed.push_back(
          {DiffKind::kSame, static_cast<uint32_t>(lo_a + x), static_cast<uint32_t>(lo_b + y)});
    }
    if (d == 0) break;
    if (x == prev_x) {
      --y;
      reversed.push_back({DiffKind::kOnlyB, 0, static_cast<uint32_t>(lo_b + y)});
    } else {
      --x;
      reversed.push_back({DiffKind::kOnlyA, static_cast<uint32_t>(lo_a + x), 0});
    }
    x = prev_x, y = prev_y;
  }
}

void append_run(std::vector<DiffRun>& runs, const Step& step) {
  const uint32_t da = step.kind == DiffKind::kOnlyB ? 0 : 1;
  const uint32_t db = step.kind == DiffKind::kOnlyA ? 0 : 1;
  if (runs.empty() || runs.back().kind != step.kind) {
    // A run starts where the one before ended on the side it does not cover.
    uint32_t a = runs.empty() ? 0 : runs.back().a_end, b = runs.empty() ? 0 : runs.back().b_end;
    if (da) a = step.a;
    if (db) b = step.b;
    runs.push_back({step.kind, a, a, b, b});
  }
  runs.back().a_end += da;
  runs.back().b_end += db;
}

}  // namespace

std::vector<std::string_view> split_words(std::string_view text, size_t max_words) {
  Words words;
  size_t i = 0;
  while (i < text.size() && words.size() < max_words) {
    while (i < text.size() && is_space(text[i])) ++i;
    size_t begin = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    if (i > begin) words.push_back(text.substr(begin, i - begin));
  }
  return words;
}

WordDiff word_diff(std::string_view a, std::string_view b, size_t max_words, size_t max_edits) {
  WordDiff diff;
  diff.a_words = split_words(a, max_words);
  diff.b_words = split_words(b, max_words);
  diff.cut = split_words(a, max_words + 1).size() > max_words ||
             split_words(b, max_words + 1).size() > max_words;
  const Words &wa = diff.a_words, &wb = diff.b_words;
  size_t head = 0;
  while (head < wa.size() && head < wb.size() && wa[head] == wb[head]) ++head;
  size_t tail = 0;
  while (tail < wa.size() - head && tail < wb.size() - head &&
         wa[wa.size() - 1 - tail] == wb[wb.size() - 1 - tail]) {
    ++tail;
  }
  std::vector<Step> steps;
  for (size_t i = 0; i < head; ++i) steps.push_back({DiffKind::kSame, uint32_t(i), uint32_t(i)});
  const size_t hi_a = wa.size() - tail, hi_b = wb.size() - tail;
  std::vector<std::vector<long>> trace;
  const long edits =
      myers_search(wa, wb, head, hi_a, head, hi_b, static_cast<long>(max_edits), trace);
  if (edits >= 0) {
    std::vector<Step> reversed;
    myers_walk_back(head, head, long(hi_a - head), long(hi_b - head), edits, trace, reversed);
    steps.insert(steps.end(), reversed.rbegin(), reversed.rend());
  } else {
    diff.approximate = true;
    for (size_t i = head; i < hi_a; ++i) steps.push_back({DiffKind::kOnlyA, uint32_t(i), 0});
    for (size_t j = head; j < hi_b; ++j) steps.push_back({DiffKind::kOnlyB, 0, uint32_t(j)});
  }
  for (size_t t = 0; t < tail; ++t) {
    steps.push_back({DiffKind::kSame, uint32_t(hi_a + t), uint32_t(hi_b + t)});
  }
  for (const Step& step : steps) {
    append_run(diff.runs, step);
    if (step.kind == DiffKind::kSame) ++diff.same_words;
  }
  return diff;
}

}  // namespace winnow
