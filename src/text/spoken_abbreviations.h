#pragma once
// Whole tokens NeMo's English text normaliser reads through its whitelist (data/whitelist/
// tts.tsv and symbol.tsv), for the common ones: titles and Latin abbreviations ("Dr." →
// "doctor", "Mrs." → "misses", "e.g." → "for example", "vs" → "versus"), dotted
// abbreviations it writes as one word ("U.S." → "US", "a.m." → "AM", any three or more capital
// letters with dots: "U.S.A." → "USA"), and symbols standing alone ("&" → "and", "%" →
// "percent", "$" → "dollar", "+" → "plus"). NeMo's list holds some 3,900 entries (mostly
// capitalisation of acronyms, which the WER cleaning's lower case makes moot); the rest of it,
// its "St." before a name ("Saint"), and symbols inside a token ("AT&T" aside) are not read here.
#include <string>
#include <string_view>

namespace winnow {

// The spoken words for `token` (without punctuation around it), or empty when NeMo's whitelist
// has none that this table holds.
std::string spoken_abbreviation(std::string_view token);

}  // namespace winnow
