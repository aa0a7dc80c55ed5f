#include "text/spoken_date.h"

#include <array>

#include "core/ascii.h"
#include "text/english_numbers.h"

namespace winnow {

namespace {

constexpr std::array<std::string_view, 12> kMonths = {
    "january", "february", "march",     "april",   "may",      "june",
    "july",    "august",   "september", "october", "november", "december"};
// NeMo's abbreviations (no "may"), with the month each names.
constexpr std::array<std::pair<std::string_view, int>, 12> kAbbreviations = {{{"jan", 0},
                                                                              {"feb", 1},
                                                                              {"mar", 2},
                                                                              {"apr", 3},
                                                                              {"jun", 5},
                                                                              {"jul", 6},
                                                                              {"aug", 7},
                                                                              {"sep", 8},
                                                                              {"sept", 8},
                                                                              {"oct", 9},
                                                                              {"nov", 10},
                                                                              {"dec", 11}}};

// The month `t` names, with the token's trailing dot after an abbreviation ("Jan.") taken as
// part of it; empty when none, or when other punctuation follows. NeMo's grammar takes names
// in lower case, with a capital then lower case, or in capitals ("july", "July", "JULY"; not
// "jULY").
std::string_view month_of(const SpokenToken& t) {
  const std::string_view w = t.core;
  if (w.size() < 3 || w.size() > 9 || !is_ascii_alpha(w[0])) return {};
  bool all_upper = true, rest_lower = true;
  for (size_t i = 0; i < w.size(); ++i) {
    all_upper &= is_ascii_upper(w[i]);
    if (i > 0) rest_lower &= !is_ascii_upper(w[i]);
  }
  if (!all_upper && !rest_lower) return {};
  for (std::string_view m : kMonths) {
    if (t.trail.empty() && ascii_iequals(w, m)) return m;
  }
  for (const auto& [abbreviation, month] : kAbbreviations) {
    if ((t.trail.empty() || t.trail == ".") && ascii_iequals(w, abbreviation)) {
      return kMonths[size_t(month)];
    }
  }
  return {};
}

// A day as NeMo's date grammar writes it: 0 to 31 without a leading zero, an ordinal ending
// optional (any of st, nd, rd, th, in lower or upper case); its ordinal words.
std::string day_of(std::string_view core) {
  for (std::string_view ending : {"st", "nd", "rd", "th", "ST", "ND", "RD", "TH"}) {
    if (core.size() > 2 && core.ends_with(ending)) {
      core.remove_suffix(2);
      break;
    }
  }
  if (!is_digit_string(core) || core.size() > 2 || (core.size() == 2 && core[0] == '0')) return {};
  if (core.size() == 2 && (core[0] > '3' || (core[0] == '3' && core[1] > '1'))) return {};
  return ordinal_words(core);
}

}  // namespace

std::optional<SpokenDate> read_spoken_date(std::span<const SpokenToken> tokens) {
  // Joined tokens: no punctuation between them but what a date may hold.
  auto joins = [&](size_t i) { return i + 1 < tokens.size() && tokens[i + 1].lead.empty(); };
  auto year_at = [&](size_t i) -> std::string {
    return i < tokens.size() && tokens[i].lead.empty() ? year_words(tokens[i].core) : std::string();
  };
  size_t i = 0;
  const bool the = tokens.size() > 1 && tokens[0].core == "the" && tokens[0].trail.empty();
  if (the) i = 1;
  // Day then month: "[the] 25 july [2012]".
  if (std::string day = day_of(tokens[i].core);
      !day.empty() && tokens[i].trail.empty() && joins(i) && (!the || tokens[i].lead.empty())) {
    if (std::string_view month = month_of(tokens[i + 1]); !month.empty()) {
      std::string words = "the " + day + " of " + std::string(month);
      size_t used = i + 2;
      if (joins(i + 1)) {  // month_of let only an abbreviation's dot follow
        if (std::string year = year_at(used); !year.empty()) {
          words += " " + year;
          ++used;
        }
      }
      return SpokenDate{words, used};
    }
  }
  if (the) return std::nullopt;
  // Month then day: "July [the] 4[,] [1776]".
  const std::string_view month = month_of(tokens[0]);
  if (month.empty() || !joins(0)) return std::nullopt;
  size_t at = 1;
  if (tokens[at].core == "the" && tokens[at].trail.empty() && joins(at)) ++at;
  const std::string day = tokens[at].lead.empty() ? day_of(tokens[at].core) : std::string();
  if (day.empty()) return std::nullopt;
  std::string words = std::string(month) + " " + day;
  size_t used = at + 1;
  if (tokens[at].trail.empty() || tokens[at].trail == ",") {
    if (std::string year = year_at(used); !year.empty()) {
      words += " " + year;
      ++used;
    }
  }
  return SpokenDate{words, used};
}

}  // namespace winnow
