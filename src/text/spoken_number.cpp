#include "text/spoken_number.h"

#include <array>
#include <vector>

#include "core/ascii.h"
#include "text/english_numbers.h"

namespace winnow {

namespace {

bool is_digit(char c) { return is_ascii_digit(c); }
bool all_digits(std::string_view s) { return is_digit_string(s); }

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
  if (s.starts_with("-")) {
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
    if (!core.starts_with(c.symbol)) continue;
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
  if (s.starts_with("-")) {
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
  if (s.starts_with("-")) {
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

}  // namespace

std::optional<SpokenNumber> read_spoken_number(std::string_view core, std::string_view next) {
  auto with = [](std::optional<Reading> r, SpokenKind kind) -> std::optional<SpokenNumber> {
    if (!r) return std::nullopt;
    return SpokenNumber{std::move(r->words), r->took_next, kind};
  };
  if (auto r = read_money(core, next)) return with(r, SpokenKind::kMoney);
  if (auto r = read_time(core, next)) return with(r, SpokenKind::kTime);
  if (auto r = read_percent(core, next)) return with(r, SpokenKind::kOther);
  if (auto r = read_ordinal(core)) return with(r, SpokenKind::kOther);
  if (auto r = read_decade(core)) return with(r, SpokenKind::kOther);
  return with(read_number(core, next), SpokenKind::kOther);
}

}  // namespace winnow
