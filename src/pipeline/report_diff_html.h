#pragma once
// Two texts side by side in report.html, the words that differ marked: the word diff
// (text/word_diff.h) of A (the kept item) and B (the removed one) as two columns, A's own words
// in <mark class="a">, B's in <mark class="b">. Long runs of shared words are shortened to their
// first and last few words and a count, so a pair of long near-identical documents shows where
// they differ, not pages of what they share.
#include <string>
#include <string_view>

namespace winnow {

// `<div class="sides"><div class="side">A…</div><div class="side">B…</div></div>`.
std::string diff_columns_html(std::string_view a, std::string_view b);

}  // namespace winnow
