#include "pipeline/report_diff_html.h"

#include <fmt/format.h>

#include "core/html_escape.h"
#include "text/word_diff.h"

namespace winnow {

namespace {

// Words shown at each end of a shortened run of shared words.
constexpr uint32_t kContextWords = 12;
// Bounds of the diff: a report shows a sample, never a whole corpus.
constexpr size_t kMaxWords = 3000;
constexpr size_t kMaxEdits = 400;

void append_words(std::string& out, const std::vector<std::string_view>& words, uint32_t begin,
                  uint32_t end) {
  for (uint32_t i = begin; i < end; ++i) {
    out += escape_html(words[i]);
    out += ' ';
  }
}

// One side's words of a run: shared words (shortened when long) or this side's own, marked.
void append_run(std::string& out, const std::vector<std::string_view>& words, uint32_t begin,
                uint32_t end, bool own, const char* mark) {
  if (own) {
    out += fmt::format("<mark class=\"{}\">", mark);
    append_words(out, words, begin, end);
    out.pop_back();  // the space after the last word goes after the mark
    out += "</mark> ";
    return;
  }
  if (end - begin <= 2 * kContextWords + 1) {
    append_words(out, words, begin, end);
    return;
  }
  append_words(out, words, begin, begin + kContextWords);
  out += fmt::format("<span class=\"same\">[… {} words the same …]</span> ",
                     end - begin - 2 * kContextWords);
  append_words(out, words, end - kContextWords, end);
}

}  // namespace

std::string diff_columns_html(std::string_view a, std::string_view b) {
  const WordDiff diff = word_diff(a, b, kMaxWords, kMaxEdits);
  std::string left, right;
  for (const DiffRun& run : diff.runs) {
    if (run.kind != DiffKind::kOnlyB) {
      append_run(left, diff.a_words, run.a_begin, run.a_end, run.kind == DiffKind::kOnlyA, "a");
    }
    if (run.kind != DiffKind::kOnlyA) {
      append_run(right, diff.b_words, run.b_begin, run.b_end, run.kind == DiffKind::kOnlyB, "b");
    }
  }
  std::string note;
  if (diff.cut) note += fmt::format(" (first {} words)", kMaxWords);
  if (diff.approximate) note += " (many differences: the middle marked whole)";
  return fmt::format(
      "<div class=\"sides\"><div class=\"side\">{}</div><div class=\"side\">{}</div></div>{}", left,
      right, note.empty() ? "" : "<p class=\"note\">diff" + note + "</p>");
}

}  // namespace winnow
