#pragma once
// Unicode whitespace as Python's str.isspace() and re's \s see it, for extractors that must
// split and normalise text the way jusText does.
#include <string>
#include <string_view>

namespace winnow {

// The non-ASCII part of unicode_space_length.
size_t unicode_space_length_multibyte(std::string_view utf8, size_t i);

// Byte length of the whitespace character at utf8[i], or 0 when it is not whitespace. Inline:
// the extractors call it on every byte, and nearly every byte is ASCII.
inline size_t unicode_space_length(std::string_view utf8, size_t i) {
  auto c = static_cast<unsigned char>(utf8[i]);
  if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
  return unicode_space_length_multibyte(utf8, i);
}

// Calls visit(word) for each run of non-whitespace in `text`, in order (Python's str.split()):
// the words both extractors' stop-word densities count.
template <class Visit>
void for_each_unicode_word(std::string_view text, Visit&& visit) {
  size_t i = 0;
  while (i < text.size()) {
    size_t n;
    while (i < text.size() && (n = unicode_space_length(text, i)) != 0) i += n;
    const size_t start = i;
    while (i < text.size() && unicode_space_length(text, i) == 0) ++i;
    if (i == start) break;
    visit(text.substr(start, i - start));
  }
}

// Appends `text` with every run of whitespace replaced by "\n" when the run holds a line break
// ("\n" or "\r") and by " " otherwise (jusText's normalize_whitespace).
void append_normalized_whitespace(std::string& out, std::string_view text);

// Removes leading and trailing whitespace.
std::string_view trim_unicode_space(std::string_view text);

bool is_blank_unicode(std::string_view text);

}  // namespace winnow
