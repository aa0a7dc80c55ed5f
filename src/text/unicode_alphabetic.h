#pragma once
// Unicode's Alphabetic property (letters, letter numbers such as Ⅻ, and the combining vowel signs
// of Indic scripts), as the `regex` module's [[:alpha:]] tests it. NeMo's
// WordsWithoutAlphabetsFilter counts the words where that class matches; Python's str.isalpha()
// (python_text.h) is the narrower letter categories.
#include <string_view>

namespace winnow {

// Whether some code point of `utf8` is Alphabetic (ICU's u_isUAlphabetic). ASCII letters are
// found without decoding; an ill-formed byte is not Alphabetic.
bool has_alphabetic(std::string_view utf8);

}  // namespace winnow
