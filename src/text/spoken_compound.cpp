#include "text/spoken_compound.h"

#include <array>
#include <vector>

#include "text/english_numbers.h"
#include "text/spoken_number.h"

namespace winnow {

namespace {

bool all_digits(std::string_view s) { return is_digit_string(s); }

std::vector<std::string_view> split_at(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  for (size_t at = 0;;) {
    const size_t end = s.find(separator, at);
    parts.push_back(
        s.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) return parts;
    at = end + 1;
  }
}

bool digits_of_size(std::string_view s, size_t size) { return s.size() == size && all_digits(s); }

// Each digit said, "zero" for 0.
std::string each_digit(std::string_view s) { return digit_words(s); }

// NeMo's telephone class: [+]country code, then a three-digit area code ("800" said "eight
// hundred"), three and four digits, and extensions of up to four digits, parts joined by "-" (or
// all by "."), said digit by digit with ", " between parts ("123-123-5678" → "one two three, one
// two three, five six seven eight"); a US social security number 3-2-4 likewise; an IP address
// with " dot ".
std::optional<std::string> telephone(std::string_view core) {
  const char separator = core.find('-') != std::string_view::npos ? '-' : '.';
  std::vector<std::string_view> parts = split_at(core, separator);
  std::string country;
  if (separator == '.' && parts.size() == 4) {  // an IP address
    std::string out;
    for (std::string_view p : parts) {
      if (p.empty() || p.size() > 3 || !all_digits(p)) return std::nullopt;
      out += (out.empty() ? "" : " dot ") + each_digit(p);
    }
    return out;
  }
  if (separator == '-' && parts.size() == 3 && digits_of_size(parts[0], 3) &&
      digits_of_size(parts[1], 2) && digits_of_size(parts[2], 4)) {  // a social security number
    return each_digit(parts[0]) + ", " + each_digit(parts[1]) + ", " + each_digit(parts[2]);
  }
  auto area_and_number = [&](size_t at) {
    return parts.size() >= at + 3 && digits_of_size(parts[at], 3) &&
           digits_of_size(parts[at + 1], 3) && digits_of_size(parts[at + 2], 4);
  };
  if (area_and_number(1)) {  // a country code first (never with area_and_number(0))
    std::string_view code = parts[0];
    const bool plus = code.starts_with("+");
    if (plus) code.remove_prefix(1);
    if (code.empty() || code.size() > 3 || !all_digits(code)) return std::nullopt;
    country = (plus ? "plus " : "") + each_digit(code) + ", ";
    parts.erase(parts.begin());
  }
  if (!area_and_number(0)) return std::nullopt;
  std::string out = country + (parts[0] == "800" ? "eight hundred" : each_digit(parts[0]));
  for (size_t i = 1; i < parts.size(); ++i) {
    if (i >= 3 && (parts[i].empty() || parts[i].size() > 4 || !all_digits(parts[i])))
      return std::nullopt;
    out += ", " + each_digit(parts[i]);
  }
  return out;
}

constexpr std::array<std::string_view, 12> kMonths = {
    "january", "february", "march",     "april",   "may",      "june",
    "july",    "august",   "september", "october", "november", "december"};

std::optional<int> small_number(std::string_view s, size_t min_size, size_t max_size) {
  if (s.size() < min_size || s.size() > max_size || !all_digits(s)) return std::nullopt;
  return std::stoi(std::string(s));
}

// A date's year: four digits from 1000 to 2999, or two ("05" → "zero five", "98" → "ninety
// eight").
std::string date_year(std::string_view s) {
  if (s.size() == 4) return year_words(s);
  if (s.size() == 2 && all_digits(s)) return s[0] == '0' ? each_digit(s) : cardinal_words(s);
  return {};
}

// NeMo's numeric dates, one separator ("-", "/" or ".") throughout: month/day/year
// ("10/06/2005" → "october sixth two thousand five"), day/month/year when the day is 13 to 31
// ("15-01-2020" → "the fifteenth of january twenty twenty"), year-month-day ("2016-11-03" →
// "november third twenty sixteen").
std::optional<std::string> numeric_date(std::string_view core) {
  for (char separator : {'-', '/', '.'}) {
    const std::vector<std::string_view> p = split_at(core, separator);
    if (p.size() != 3) continue;
    auto month_day = [](std::string_view month, std::string_view day) -> std::string {
      auto m = small_number(month, 1, 2);
      auto d = small_number(day, 1, 2);
      if (!m || !d || *m < 1 || *m > 12 || *d < 1 || *d > 31) return {};
      return std::string(kMonths[size_t(*m - 1)]) + " " + ordinal_words(std::to_string(*d));
    };
    if (std::string md = month_day(p[0], p[1]); !md.empty()) {
      if (std::string y = date_year(p[2]); !y.empty()) return md + " " + y;
    }
    if (auto d = small_number(p[0], 2, 2); d && *d >= 13 && *d <= 31) {
      auto m = small_number(p[1], 1, 2);
      std::string y = date_year(p[2]);
      if (m && *m >= 1 && *m <= 12 && !y.empty()) {
        return "the " + ordinal_words(std::to_string(*d)) + " of " +
               std::string(kMonths[size_t(*m - 1)]) + " " + y;
      }
    }
    if (std::string y = date_year(p[0]); !y.empty()) {
      if (std::string md = month_day(p[1], p[2]); !md.empty()) return md + " " + y;
    }
  }
  return std::nullopt;
}

// A year range ("1980-1986" → "nineteen eighty to nineteen eighty six", "1960-80", "1960s-80s").
std::optional<std::string> year_range(std::string_view core) {
  const size_t dash = core.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::string_view a = core.substr(0, dash), b = core.substr(dash + 1);
  auto year = [](std::string_view s) -> std::string {
    if (s.size() == 4) return year_words(s);
    if (s.size() == 5 && s.back() == 's') return year_words(s.substr(0, 4), true);
    return {};
  };
  const std::string first = year(a);
  if (first.empty()) return std::nullopt;
  std::string second = year(b);
  if (second.empty() && digits_of_size(b, 2) && b[0] != '0') second = cardinal_words(b);
  if (second.empty() && b.size() == 3 && all_digits(b.substr(0, 2)) && b[1] == '0' && b[0] >= '2' &&
      b[2] == 's') {
    second = cardinal_words(b.substr(0, 2));
    second = second.substr(0, second.size() - 1) + "ies";
  }
  if (second.empty()) return std::nullopt;
  return first + " to " + second;
}

// A token of numbers joined by hyphens that no class reads whole: NeMo's tokenizer takes the
// hyphens apart as punctuation ("2-5" → "two - five", "978-0" → "nine hundred and seventy
// eight - zero"); between two amounts of money or two times a hyphen is "to" ("$250-$300",
// "5pm-7pm").
std::optional<std::string> hyphenated(std::string_view core) {
  if (core.find('-', 1) == std::string_view::npos) return std::nullopt;
  const std::vector<std::string_view> parts = split_at(core, '-');
  std::string out;
  std::optional<SpokenKind> previous;
  for (std::string_view part : parts) {
    auto r = part.empty() ? std::nullopt : read_spoken_number(part, {});
    if (!r) return std::nullopt;
    const SpokenKind kind = r->kind;
    if (!out.empty()) {
      const bool to = kind == previous && kind != SpokenKind::kOther;
      out += to ? " to " : " - ";
    }
    out += r->words;
    previous = kind;
  }
  return out;
}

}  // namespace

std::optional<std::string> read_spoken_compound(std::string_view core) {
  for (auto read : {telephone, numeric_date, year_range, hyphenated}) {
    if (auto words = read(core)) return words;
  }
  return std::nullopt;
}

}  // namespace winnow
