#pragma once
// Numbers in English words as NeMo's text normaliser (nemo_text_processing, English,
// deterministic: what NeMo Curator's ComputeWERStage runs) says them: American scale words,
// words apart (no hyphens, no commas), "zero" for 0. Used by spoken_english.h.
#include <string>
#include <string_view>

namespace winnow {

// Not empty and nothing but ASCII digits.
bool is_digit_string(std::string_view s);

// The most digits cardinal_words reads: up to 999 sextillion (10^24 - 1). NeMo's own limit
// lies in a compiled grammar (cardinal_number_name.far); its tests go to quintillions.
inline constexpr size_t kMaxCardinalDigits = 24;

// ASCII digits without sign or separators, no leading zero unless the number is 0, at most
// kMaxCardinalDigits: "123045" → "one hundred twenty three thousand forty five" (no "and").
// Empty when `digits` is not such a number.
std::string cardinal_words(std::string_view digits);

// cardinal_words with the one "and" NeMo's cardinal grammar prefers (add_optional_and): after
// the last "hundred" that is followed by more words but by no "thousand" or "million"
// ("one hundred and twenty three", "five hundred billion … three hundred and one"), or else
// after a "thousand" followed by more words and no "hundred" ("eighteen thousand and
// eighty one"). NeMo's grammar scores every "hundred" that qualifies alike (ties only above a
// billion with zero thousands and millions); the last one is taken here, which is unverified.
std::string cardinal_words_with_and(std::string_view digits);

// The ordinal of cardinal_words (no "and"): its last word made ordinal ("twenty first",
// "one hundred eleventh", "one thousandth", "zeroth"). Empty when cardinal_words is.
std::string ordinal_words(std::string_view digits);

// Each digit as a word: "007" → "zero zero seven" (NeMo's reading of numbers with a leading
// zero and of unseparated numbers of five digits or more).
std::string digit_words(std::string_view digits);

// A four-digit year from 1000 to 2999 as NeMo reads a bare one: in pairs ("nineteen ninety
// five", "twenty ten", "nineteen oh five"), "nineteen hundred", and "two thousand [five]" for
// X000-X009. With `plural` the decade or century form: 1990 → "nineteen nineties", 1900 →
// "nineteen hundreds", 2000 → "two thousands"; empty where NeMo has none (2020 → "").
// Empty when `digits` is not such a year.
std::string year_words(std::string_view digits, bool plural = false);

}  // namespace winnow
