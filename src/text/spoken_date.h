#pragma once
// Dates with a month's name, as NeMo's English text normaliser reads them (its date grammar,
// deterministic): month, day and year ("July 4, 1776" → "july fourth seventeen seventy six",
// "jan. 15 2020" → "january fifteenth twenty twenty"), day then month ("25 july 2012" → "the
// twenty fifth of july twenty twelve", "the 26th May" → "the twenty sixth of may"). A month
// alone or with a year only reads as its words do anyway. Used by spoken_english.h.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace winnow {

// A white-space token taken apart: punctuation before, the rest, punctuation after.
struct SpokenToken {
  std::string_view lead, core, trail;
};

struct SpokenDate {
  std::string words;
  size_t tokens = 0;  // how many of the tokens the date took
};

// The date that starts at tokens[0], if any; tokens[0]'s lead and the last token's trail are
// the caller's to keep.
std::optional<SpokenDate> read_spoken_date(std::span<const SpokenToken> tokens);

}  // namespace winnow
