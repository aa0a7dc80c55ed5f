#pragma once
// Unicode whitespace as Python's str.isspace() and re's \s see it, for extractors that must
// split and normalise text the way jusText does.
#include <string>
#include <string_view>

namespace winnow {

// Byte length of the whitespace character at utf8[i], or 0 when it is not whitespace.
size_t unicode_space_length(std::string_view utf8, size_t i);

// Appends `text` with every run of whitespace replaced by "\n" when the run holds a line break
// ("\n" or "\r") and by " " otherwise (jusText's normalize_whitespace).
void append_normalized_whitespace(std::string& out, std::string_view text);

// Removes leading and trailing whitespace.
std::string_view trim_unicode_space(std::string_view text);

bool is_blank_unicode(std::string_view text);

}  // namespace winnow
