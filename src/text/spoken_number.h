#pragma once
// One token's number as NeMo's English text normaliser reads it (spoken_english.h has the list
// and what is left): cardinals, years and decades, ordinals, decimals, percent, money, clock
// times, with the next token when NeMo reads the two together ("5 pm", "$45 billion", "50 %",
// "123 million").
#include <optional>
#include <string>
#include <string_view>

namespace winnow {

enum class SpokenKind { kMoney, kTime, kOther };

struct SpokenNumber {
  std::string words;
  bool took_next = false;  // the next token was read with this one
  SpokenKind kind = SpokenKind::kOther;
};

// `core`: a token without the punctuation around it; `next`: the following token's, when no
// punctuation separates the two (empty otherwise). Nothing when NeMo's classes (those done
// here) do not read the token whole.
std::optional<SpokenNumber> read_spoken_number(std::string_view core, std::string_view next);

}  // namespace winnow
