#include "text/spoken_english.h"

#include <array>
#include <optional>
#include <vector>

#include "text/english_numbers.h"
#include "text/spoken_abbreviations.h"

namespace winnow {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}

bool starts_with(std::string_view s, std::string_view head) {
  return s.substr(0, head.size()) == head;
}

// Punctuation NeMo's tokenizer takes apart from a token, at its start and at its end. Not "$",
// "£", "€", "%", "-" or a leading ".": those belong to money, percent, signs and decimals; not
// "*", "&", "+" and the other symbols NeMo reads as words (spoken_abbreviations.h).
constexpr std::array<std::string_view, 13> kLeadPunct = {
    "(", "[", "{", "\"", "'", "!", "?", "\u201c", "\u2018", "\u00ab", "\u00bf", "\u00a1", "\u201e"};
constexpr std::array<std::string_view, 16> kTrailPunct = {
    ".", ",",  ";", ":",      "!",      "?",      ")",      "]",
    "}", "\"", "'", "\u201d", "\u2019", "\u00bb", "\u2026", "\u201c"};

template <size_t N>
size_t punct_at_start(std::string_view s, const std::array<std::string_view, N>& marks) {
  for (std::string_view m : marks) {
    if (starts_with(s, m)) return m.size();
  }
  return 0;
}

template <size_t N>
size_t punct_at_end(std::string_view s, const std::array<std::string_view, N>& marks) {
  for (std::string_view m : marks) {
    if (s.size() >= m.size() && s.substr(s.size() - m.size()) == m) return m.size();
  }
  return 0;
}

struct Token {
  std::string_view lead, core, trail;
};

Token split_token(std::string_view raw) {
  Token t;
  size_t begin = 0, end = raw.size();
  while (begin < end) {
    const size_t n = punct_at_start(raw.substr(begin, end - begin), kLeadPunct);
    if (!n) break;
    begin += n;
  }
  while (end > begin) {
    const size_t n = punct_at_end(raw.substr(begin, end - begin), kTrailPunct);
    if (!n) break;
    end -= n;
  }
  return {raw.substr(0, begin), raw.substr(begin, end - begin), raw.substr(end)};
}

// An integer as written: plain digits, or one to three digits then groups of ",ddd".
struct Integer {
  std::string digits;  // without the commas
  bool grouped = false;
};

std::optional<Integer> parse_integer(std::string_view s) {
  if (s.find(',') == std::string_view::npos) {
    if (!all_digits(s)) return std::nullopt;
    return Integer{std::string(s), false};
  }
  const size_t first = s.find(',');
  if (first == 0 || first > 3 || !all_digits(s.substr(0, first))) return std::nullopt;
  Integer out{std::string(s.substr(0, first)), true};
  for (size_t at = first; at < s.size(); at += 4) {
    if (s[at] != ',' || s.size() - at < 4 || !all_digits(s.substr(at + 1, 3))) return std::nullopt;
    out.digits += s.substr(at + 1, 3);
  }
  return out;
}

// NeMo's cardinal with its "and" (graph_with_and): money, percent, decimals' integer parts.
std::optional<std::string> with_and(const Integer& n) {
  std::string words = cardinal_words_with_and(n.digits);
  if (words.empty()) return std::nullopt;
  return words;
}

// A bare cardinal, as NeMo's cardinal and date classes read it.
std::optional<std::string> bare_cardinal(const Integer& n, bool negative) {
  const std::string_view d = n.digits;
  std::string words;
  if (!n.grouped && (d.size() >= 5 || (d.size() > 1 && d[0] == '0')))
    words = digit_words(d);
  else if (!n.grouped && !negative && d.size() == 4)
    words = year_words(d);
  if (words.empty()) words = cardinal_words_with_and(d);
  if (words.empty()) return std::nullopt;
  return negative ? "minus " + words : words;
}

// "[-]int.frac" with the integer part optional: NeMo's decimal (integer with "and", fraction
// digit by digit).
std::optional<std::string> decimal_words(std::string_view s) {
  bool negative = false;
  if (starts_with(s, "-")) {
    negative = true;
    s.remove_prefix(1);
  }
  const size_t point = s.find('.');
  if (point == std::string_view::npos || !all_digits(s.substr(point + 1))) return std::nullopt;
  std::string out = negative ? "minus " : "";
  if (point > 0) {
    auto n = parse_integer(s.substr(0, point));
    if (!n) return std::nullopt;
    auto words = with_and(*n);
    if (!words) return std::nullopt;
    out += *words + " ";
  }
  return out + "point " + digit_words(s.substr(point + 1));
}

// million … centillion: the words after which NeMo reads a number of up to three digits
// without its "and" (decimal.py's get_quantity; "thousand" is left out there).
bool is_large_quantity(std::string_view w) {
  static constexpr std::array<std::string_view, 21> kWords = {
      "million",      "billion",         "trillion",      "quadrillion",       "quintillion",
      "sextillion",   "septillion",      "octillion",     "nonillion",         "decillion",
      "undecillion",  "duodecillion",    "tredecillion",  "quattuordecillion", "quindecillion",
      "sexdecillion", "septendecillion", "octodecillion", "novemdecillion",    "vigintillion",
      "centillion"};
  for (std::string_view q : kWords) {
    if (w == q) return true;
  }
  return false;
}

// A quantity after an amount of money, written out: the words, "thousand", and the
// abbreviations NeMo knows (M, mln, B, bn, K ...). Empty when `w` is none.
std::string money_quantity(std::string_view w) {
  if (w == "thousand" || is_large_quantity(w)) return std::string(w);
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kAbbr = {
      {{"M", "million"},
       {"MLN", "million"},
       {"m", "million"},
       {"mln", "million"},
       {"B", "billion"},
       {"b", "billion"},
       {"BN", "billion"},
       {"bn", "billion"},
       {"K", "thousand"},
       {"k", "thousand"},
       {"Mln", "million"},
       {"Bn", "billion"}}};
  for (const auto& [abbr, word] : kAbbr) {
    if (w == abbr) return std::string(word);
  }
  return {};
}

struct Currency {
  std::string_view symbol, major, majors, minor, minors;  // minor empty: none in NeMo's lists
};

constexpr std::array<Currency, 5> kCurrencies = {{
    {"$", "dollar", "dollars", "cent", "cents"},
    {"\u00a3", "pound", "pounds", "penny", "pence"},
    {"\u20ac", "euro", "euros", "cent", "cents"},
    {"\u00a5", "yen", "yen", "", ""},
    {"\u20a9", "won", "won", "", ""},
}};

std::string strip_trailing_zeros(std::string_view s) {
  while (!s.empty() && s.back() == '0') s.remove_suffix(1);
  return std::string(s);
}

// The amount after a currency symbol, without a quantity.
std::optional<std::string> money_amount(const Currency& c, std::string_view a) {
  const size_t point = a.find('.');
  const std::string_view int_part = a.substr(0, point);
  const std::string frac =
      point == std::string_view::npos ? std::string() : strip_trailing_zeros(a.substr(point + 1));
  if (point != std::string_view::npos && !all_digits(a.substr(point + 1))) return std::nullopt;
  std::optional<Integer> n;
  if (!int_part.empty()) {
    n = parse_integer(int_part);
    if (!n) return std::nullopt;
  }
  auto major_words = [&](const Integer& i) -> std::optional<std::string> {
    if (i.digits == "1") return "one " + std::string(c.major);
    auto words = with_and(i);
    if (!words) return std::nullopt;
    return *words + " " + std::string(c.majors);
  };
  if (frac.empty()) {  // "$5", "$5.00"
    if (!n) return std::nullopt;
    return major_words(*n);
  }
  if (frac.size() <= 2) {  // "$5.5", "$5.50", "$0.05": cents
    if (c.minor.empty()) return std::nullopt;
    const int cents =
        frac.size() == 1 ? (frac[0] - '0') * 10 : (frac[0] - '0') * 10 + (frac[1] - '0');
    const std::string minor =
        cents == 1 ? "one " + std::string(c.minor)
                   : cardinal_words(std::to_string(cents)) + " " + std::string(c.minors);
    if (!n || n->digits == "0") return minor;
    auto major = major_words(*n);
    if (!major) return std::nullopt;
    return *major + " " + minor;
  }
  // Three digits or more after the point: a decimal number of the major unit.
  auto number = decimal_words(std::string(int_part) + "." + frac);
  if (!number) return std::nullopt;
  return *number + " " + std::string(c.majors);
}

// An amount then a quantity ("$45 billion", "$2.5 million", "¥30b"): NeMo reads the number,
// the quantity, then the major unit in the plural.
std::optional<std::string> money_with_quantity(const Currency& c, std::string_view a,
                                               std::string_view quantity_word) {
  const std::string quantity = money_quantity(quantity_word);
  if (quantity.empty()) return std::nullopt;
  std::optional<std::string> number;
  if (a.find('.') != std::string_view::npos) {
    number = decimal_words(a);
  } else if (a.size() <= 3 && all_digits(a) && a[0] != '0' && quantity != "thousand") {
    number = cardinal_words(a);
  }
  if (!number) return std::nullopt;
  return *number + " " + quantity + " " + std::string(c.majors);
}

struct Reading {
  std::string words;
  bool took_next = false;  // the next token was read with this one
};

std::optional<Reading> read_money(std::string_view core, std::string_view next) {
  for (const Currency& c : kCurrencies) {
    if (!starts_with(core, c.symbol)) continue;
    const std::string_view a = core.substr(c.symbol.size());
    size_t alpha = 0;
    while (alpha < a.size() && (is_digit(a[alpha]) || a[alpha] == '.' || a[alpha] == ',')) ++alpha;
    if (alpha == 0) return std::nullopt;
    if (alpha < a.size()) {  // "¥30b"
      auto words = money_with_quantity(c, a.substr(0, alpha), a.substr(alpha));
      if (words) return Reading{*words, false};
      return std::nullopt;
    }
    if (!next.empty()) {
      auto words = money_with_quantity(c, a, next);
      if (words) return Reading{*words, true};
    }
    auto words = money_amount(c, a);
    if (words) return Reading{*words, false};
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> percent_number(std::string_view s) {
  if (s.find('.') != std::string_view::npos) return decimal_words(s);
  bool negative = false;
  if (starts_with(s, "-")) {
    negative = true;
    s.remove_prefix(1);
  }
  auto n = parse_integer(s);
  if (!n) return std::nullopt;
  auto words = with_and(*n);
  if (!words) return std::nullopt;
  return negative ? "minus " + *words : *words;
}

std::optional<Reading> read_percent(std::string_view core, std::string_view next) {
  if (core.size() > 1 && core.back() == '%') {
    auto words = percent_number(core.substr(0, core.size() - 1));
    if (words) return Reading{*words + " percent", false};
  } else if (next == "%") {
    auto words = percent_number(core);
    if (words) return Reading{*words + " percent", true};
  }
  return std::nullopt;
}

std::optional<Reading> read_ordinal(std::string_view core) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kSuffixes = {
      {{"st", "st"},
       {"ST", "st"},
       {"\u02e2\u1d57", "st"},
       {"nd", "nd"},
       {"ND", "nd"},
       {"\u207f\u1d48", "nd"},
       {"rd", "rd"},
       {"RD", "rd"},
       {"\u02b3\u1d48", "rd"},
       {"th", "th"},
       {"TH", "th"},
       {"\u1d57\u02b0", "th"}}};
  for (const auto& [written, suffix] : kSuffixes) {
    if (core.size() <= written.size() || core.substr(core.size() - written.size()) != written)
      continue;
    auto n = parse_integer(core.substr(0, core.size() - written.size()));
    if (!n) return std::nullopt;
    const std::string& d = n->digits;
    const char last = d.back();
    const bool teen = d.size() >= 2 && d[d.size() - 2] == '1';
    const std::string_view right = teen          ? "th"
                                   : last == '1' ? "st"
                                   : last == '2' ? "nd"
                                   : last == '3' ? "rd"
                                                 : "th";
    if (suffix != right) return std::nullopt;  // "21th": NeMo reads "twenty one th"; left here
    std::string words = ordinal_words(d);
    if (words.empty()) return std::nullopt;
    return Reading{words, false};
  }
  return std::nullopt;
}

// "AM" or "PM" for NeMo's time suffixes (a.m., am, A.M., AM and the p.m. ones, a final dot
// already taken off as punctuation).
std::string_view time_suffix(std::string_view s) {
  for (std::string_view am : {"a.m", "am", "A.M", "AM"}) {
    if (s == am) return "AM";
  }
  for (std::string_view pm : {"p.m", "pm", "P.M", "PM"}) {
    if (s == pm) return "PM";
  }
  return {};
}

std::optional<int> parse_hour(std::string_view s) {
  if (s.empty() || s.size() > 2 || !all_digits(s)) return std::nullopt;
  const int h = std::stoi(std::string(s));
  if (h > 23) return std::nullopt;
  return h;
}

std::optional<int> parse_minute(std::string_view s) {
  if (s.size() != 2 || !all_digits(s)) return std::nullopt;
  const int m = std::stoi(std::string(s));
  if (m > 59) return std::nullopt;
  return m;
}

std::string number(int n) { return cardinal_words(std::to_string(n)); }

std::optional<Reading> read_time(std::string_view core, std::string_view next) {
  size_t alpha = 0;
  while (alpha < core.size() && (is_digit(core[alpha]) || core[alpha] == ':' || core[alpha] == '.'))
    ++alpha;
  const std::string_view clock = core.substr(0, alpha);
  std::string_view suffix;
  bool took_next = false;
  if (alpha < core.size()) {
    suffix = time_suffix(core.substr(alpha));
    if (suffix.empty()) return std::nullopt;
  } else if (!next.empty()) {
    suffix = time_suffix(next);
    took_next = !suffix.empty();
  }
  std::vector<std::string_view> parts;
  for (size_t at = 0;;) {
    const size_t sep = clock.find_first_of(":.", at);
    parts.push_back(
        clock.substr(at, sep == std::string_view::npos ? std::string_view::npos : sep - at));
    if (sep == std::string_view::npos) break;
    at = sep + 1;
  }
  const bool dot = clock.find('.') != std::string_view::npos;
  const bool colon = clock.find(':') != std::string_view::npos;
  if (dot && (colon || suffix.empty() || parts.size() != 2))
    return std::nullopt;  // "1.59 p.m." only
  auto hour = parse_hour(parts[0]);
  if (!hour) return std::nullopt;
  const std::string tail = suffix.empty() ? "" : " " + std::string(suffix);
  if (parts.size() == 1) {  // "5 pm"
    if (suffix.empty()) return std::nullopt;
    return Reading{number(*hour) + tail, took_next};
  }
  auto minute = parse_minute(parts[1]);
  if (!minute) return std::nullopt;
  if (parts.size() == 2) {
    std::string words = number(*hour);
    if (*minute == 0)
      words += suffix.empty() ? " o'clock" : "";
    else
      words += (*minute < 10 ? " o " : " ") + number(*minute);
    return Reading{words + tail, took_next};
  }
  if (parts.size() != 3) return std::nullopt;
  auto second = parse_minute(parts[2]);
  if (!second) return std::nullopt;
  // NeMo's hours-minutes-seconds reading: "one hour" first, a minute or second written "01"
  // singular, other leading zeros unsaid.
  auto unit = [](int value, std::string_view one, std::string_view many) {
    if (value == 0) return "zero " + std::string(many);
    return number(value) + " " + std::string(value == 1 ? one : many);
  };
  std::string words = number(*hour) + (*hour == 1 ? " hour " : " hours ") +
                      unit(*minute, "minute", "minutes") + " and " +
                      unit(*second, "second", "seconds");
  return Reading{words + tail, took_next};
}

// "1990s", "2000s", "80s" ("'80s" with its apostrophe taken off as punctuation).
std::optional<Reading> read_decade(std::string_view core) {
  if (core.size() < 2 || core.back() != 's') return std::nullopt;
  const std::string_view d = core.substr(0, core.size() - 1);
  if (!all_digits(d)) return std::nullopt;
  std::string words;
  if (d.size() == 4) {
    words = year_words(d, true);
  } else if (d.size() == 2 && d[0] >= '2' && d[1] == '0') {
    words = number((d[0] - '0') * 10);
    words = words.substr(0, words.size() - 1) + "ies";  // "eighty" → "eighties"
  }
  if (words.empty()) return std::nullopt;
  return Reading{words, false};
}

std::optional<Reading> read_number(std::string_view core, std::string_view next) {
  if (core.find('.') != std::string_view::npos) {
    auto words = decimal_words(core);
    if (words) return Reading{*words, false};
    return std::nullopt;
  }
  bool negative = false;
  std::string_view s = core;
  if (starts_with(s, "-")) {
    negative = true;
    s.remove_prefix(1);
  }
  auto n = parse_integer(s);
  if (!n) return std::nullopt;
  // "123 million": NeMo's decimal class with a quantity reads up to three digits without "and".
  if (!n->grouped && n->digits.size() <= 3 && n->digits[0] != '0' && is_large_quantity(next)) {
    return Reading{(negative ? "minus " : "") + cardinal_words(n->digits) + " " + std::string(next),
                   true};
  }
  auto words = bare_cardinal(*n, negative);
  if (!words) return std::nullopt;
  return Reading{*words, false};
}

enum class Kind { kNone, kMoney, kTime, kYear, kOther };

std::optional<Reading> read_single(std::string_view core, std::string_view next, Kind* kind) {
  *kind = Kind::kOther;
  if (auto r = read_money(core, next)) return *kind = Kind::kMoney, r;
  if (auto r = read_time(core, next)) return *kind = Kind::kTime, r;
  if (auto r = read_percent(core, next)) return r;
  if (auto r = read_ordinal(core)) return r;
  if (auto r = read_decade(core)) return *kind = Kind::kYear, r;
  auto r = read_number(core, next);
  if (r && core.size() == 4 && core[0] != '-' && (core[0] == '1' || core[0] == '2'))
    *kind = Kind::kYear;
  *kind = r ? *kind : Kind::kNone;
  return r;
}

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
    const bool plus = starts_with(code, "+");
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
  Kind previous = Kind::kNone;
  for (std::string_view part : parts) {
    Kind kind;
    auto r = part.empty() ? std::nullopt : read_single(part, {}, &kind);
    if (!r) return std::nullopt;
    if (!out.empty()) {
      const bool to = kind == previous && (kind == Kind::kMoney || kind == Kind::kTime);
      out += to ? " to " : " - ";
    }
    out += r->words;
    previous = kind;
  }
  return out;
}

std::optional<Reading> read_core(std::string_view core, std::string_view next) {
  bool digit = false;
  for (char c : core) digit |= is_digit(c);
  if (!digit) return std::nullopt;
  Kind kind;
  if (auto r = read_single(core, next, &kind)) return r;
  for (auto read : {telephone, numeric_date, year_range, hyphenated}) {
    if (auto words = read(core)) return Reading{*words, false};
  }
  return std::nullopt;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// NeMo's whitelist reading of `raw` (spoken_abbreviations.h) with punctuation around it kept:
// the token as it stands, then with its trailing marks taken off one at a time ("etc.," →
// "etcetera.,"), then the same after its leading marks.
bool append_abbreviation(std::string& out, std::string_view raw, std::string_view lead) {
  for (std::string_view start : {raw, raw.substr(lead.size())}) {
    for (std::string_view r = start; !r.empty();) {
      const std::string words = spoken_abbreviation(r);
      if (!words.empty()) {
        out += raw.substr(0, raw.size() - start.size());
        out += words;
        out += start.substr(r.size());
        return true;
      }
      const size_t n = punct_at_end(r, kTrailPunct);
      if (!n) break;
      r.remove_suffix(n);
    }
    if (lead.empty()) break;
  }
  return false;
}

}  // namespace

std::string spoken_english(std::string_view text) {
  std::vector<std::string_view> raw;
  for (size_t i = 0; i < text.size();) {
    while (i < text.size() && is_space(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    if (i > start) raw.push_back(text.substr(start, i - start));
  }
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (!out.empty()) out += ' ';
    const Token t = split_token(raw[i]);
    // The next token joins this one ("5 pm", "$45 billion", "50 %") only with no punctuation
    // between them.
    std::string_view next;
    Token n;
    if (i + 1 < raw.size() && t.trail.empty()) {
      n = split_token(raw[i + 1]);
      if (n.lead.empty()) next = n.core;
    }
    if (append_abbreviation(out, raw[i], t.lead)) continue;
    std::optional<Reading> r = read_core(t.core, next);
    if (!r) {
      out += raw[i];
      continue;
    }
    std::string_view lead = t.lead;
    // "'80s": NeMo's decade takes its apostrophe (a plain "'", which the WER cleaning keeps).
    if (!lead.empty() && lead.back() == '\'' && t.core.size() == 3 && t.core.back() == 's')
      lead.remove_suffix(1);
    out += lead;
    out += r->words;
    if (r->took_next) {
      out += n.trail;
      ++i;
    } else {
      out += t.trail;
    }
  }
  return out;
}

}  // namespace winnow
