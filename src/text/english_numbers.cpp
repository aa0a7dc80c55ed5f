#include "text/english_numbers.h"

#include <algorithm>
#include <array>
#include <vector>

namespace winnow {

namespace {

constexpr std::array<std::string_view, 20> kSmall = {
    "zero",     "one",     "two",     "three",     "four",     "five",    "six",
    "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",  "thirteen",
    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
constexpr std::array<std::string_view, 10> kTens = {
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};
// Index k names 1000^k.
constexpr std::array<std::string_view, 8> kScales = {
    "", "thousand", "million", "billion", "trillion", "quadrillion", "quintillion", "sextillion"};

bool all_digits(std::string_view s) { return is_digit_string(s); }

void append_word(std::vector<std::string_view>& out, std::string_view word) { out.push_back(word); }

// 1..99 as words.
void append_below_hundred(std::vector<std::string_view>& out, int n) {
  if (n < 20) {
    append_word(out, kSmall[size_t(n)]);
    return;
  }
  append_word(out, kTens[size_t(n / 10)]);
  if (n % 10) append_word(out, kSmall[size_t(n % 10)]);
}

// 1..999 as words.
void append_below_thousand(std::vector<std::string_view>& out, int n) {
  if (n >= 100) {
    append_word(out, kSmall[size_t(n / 100)]);
    append_word(out, "hundred");
  }
  if (n % 100) append_below_hundred(out, n % 100);
}

std::vector<std::string_view> cardinal_word_list(std::string_view digits) {
  std::vector<std::string_view> out;
  if (!all_digits(digits) || digits.size() > kMaxCardinalDigits ||
      (digits.size() > 1 && digits[0] == '0')) {
    return out;
  }
  if (digits == "0") {
    out.push_back("zero");
    return out;
  }
  const size_t groups = (digits.size() + 2) / 3;
  size_t at = 0;
  for (size_t g = groups; g-- > 0;) {
    const size_t width = g == groups - 1 ? digits.size() - 3 * (groups - 1) : 3;
    int value = 0;
    for (size_t i = 0; i < width; ++i) value = value * 10 + (digits[at + i] - '0');
    at += width;
    if (value == 0) continue;
    append_below_thousand(out, value);
    if (g > 0) out.push_back(kScales[g]);
  }
  return out;
}

std::string join(const std::vector<std::string_view>& words) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// NeMo's ordinal verbaliser rewrites the last word: the irregular ones, "-ty" → "-tieth",
// "th" after the rest.
std::string ordinal_of(std::string_view word) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kIrregular = {
      {{"one", "first"},
       {"two", "second"},
       {"three", "third"},
       {"five", "fifth"},
       {"eight", "eighth"},
       {"nine", "ninth"},
       {"twelve", "twelfth"}}};
  for (const auto& [cardinal, ordinal] : kIrregular) {
    if (word == cardinal) return std::string(ordinal);
  }
  if (ends_with(word, "ty")) return std::string(word.substr(0, word.size() - 1)) + "ieth";
  return std::string(word) + "th";
}

int two_digits(std::string_view s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

// A pair of a year: "19" → "nineteen", "05" → "oh five", "20" → "twenty".
std::string year_pair(std::string_view pair) {
  std::vector<std::string_view> words;
  if (pair[0] == '0') {
    words.push_back("oh");
    words.push_back(kSmall[size_t(pair[1] - '0')]);
  } else {
    append_below_hundred(words, two_digits(pair));
  }
  return join(words);
}

// "twenty" → "twenties", "ten" → "tens", "hundred" → "hundreds".
std::string plural_of(std::string words) {
  if (!words.empty() && words.back() == 'y') {
    words.pop_back();
    return words + "ies";
  }
  return words + "s";
}

}  // namespace

bool is_digit_string(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string cardinal_words(std::string_view digits) { return join(cardinal_word_list(digits)); }

std::string cardinal_words_with_and(std::string_view digits) {
  std::vector<std::string_view> words = cardinal_word_list(digits);
  // Scanned from the end: the last "hundred" before any "thousand" or "million" (seen from the
  // end) and not the last word qualifies; otherwise a "thousand" with no "hundred" after it.
  size_t and_after = words.size();
  bool seen_thousand_or_million = false, seen_hundred = false;
  for (size_t i = words.size(); i-- > 0;) {
    const std::string_view w = words[i];
    const bool last = i + 1 == words.size();
    if (w == "hundred" && !last && !seen_thousand_or_million) {
      and_after = i;
      break;
    }
    if (w == "thousand" && !last && !seen_hundred) {
      and_after = i;
      break;
    }
    if (w == "thousand" || w == "million") seen_thousand_or_million = true;
    if (w == "hundred") seen_hundred = true;
  }
  if (and_after < words.size()) words.insert(words.begin() + std::ptrdiff_t(and_after) + 1, "and");
  return join(words);
}

std::string ordinal_words(std::string_view digits) {
  std::vector<std::string_view> words = cardinal_word_list(digits);
  if (words.empty()) return {};
  const std::string last = ordinal_of(words.back());
  words.back() = last;
  return join(words);
}

std::string digit_words(std::string_view digits) {
  std::vector<std::string_view> words;
  for (char c : digits) {
    if (c < '0' || c > '9') return {};
    words.push_back(kSmall[size_t(c - '0')]);
  }
  return join(words);
}

std::string year_words(std::string_view digits, bool plural) {
  if (digits.size() != 4 || !all_digits(digits) || (digits[0] != '1' && digits[0] != '2'))
    return {};
  const std::string_view first = kSmall[size_t(digits[0] - '0')];
  if (digits[1] == '0' && digits[2] == '0') {  // X000-X009: "two thousand [five]"
    if (plural) return digits[3] == '0' ? std::string(first) + " thousands" : std::string();
    std::string out = std::string(first) + " thousand";
    if (digits[3] != '0') out += " " + std::string(kSmall[size_t(digits[3] - '0')]);
    return out;
  }
  const std::string head = year_pair(digits.substr(0, 2));
  if (digits.substr(2) == "00") return head + (plural ? " hundreds" : " hundred");
  if (!plural) return head + " " + year_pair(digits.substr(2));
  // Decades exist only after a first pair from ten to nineteen ("nineteen nineties"); NeMo has
  // no reading of "2020s".
  if (digits[0] != '1' || digits[3] != '0' || digits[2] == '0') return {};
  return head + " " +
         plural_of(digits[2] == '1' ? "ten" : std::string(kTens[size_t(digits[2] - '0')]));
}

}  // namespace winnow
