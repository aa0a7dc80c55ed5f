#pragma once
// Numbers in one token that NeMo's English text normaliser reads as a whole beyond a single
// number (spoken_english.h has the list): telephone numbers, IP addresses, numeric dates, year
// ranges, and numbers joined by hyphens, which NeMo's tokenizer takes apart (with "to" between
// two amounts of money or two times).
#include <optional>
#include <string>
#include <string_view>

namespace winnow {

// `core`: a token without the punctuation around it. Nothing when none of these reads it.
std::optional<std::string> read_spoken_compound(std::string_view core);

}  // namespace winnow
