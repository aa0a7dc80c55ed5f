#include "text/unicode_space.h"

#include <cstdint>

namespace winnow {

size_t unicode_space_length_multibyte(std::string_view s, size_t i) {
  auto c = static_cast<uint8_t>(s[i]);
  auto at = [&](size_t k) { return i + k < s.size() ? static_cast<uint8_t>(s[i + k]) : 0; };
  if (c == 0xC2) return (at(1) == 0x85 || at(1) == 0xA0) ? 2 : 0;  // U+0085, U+00A0
  if (c == 0xE1) return (at(1) == 0x9A && at(2) == 0x80) ? 3 : 0;  // U+1680
  if (c == 0xE2) {
    if (at(1) == 0x80) {
      uint8_t d = at(2);  // U+2000-U+200A, U+2028, U+2029, U+202F
      return ((d >= 0x80 && d <= 0x8A) || d == 0xA8 || d == 0xA9 || d == 0xAF) ? 3 : 0;
    }
    return (at(1) == 0x81 && at(2) == 0x9F) ? 3 : 0;  // U+205F
  }
  if (c == 0xE3) return (at(1) == 0x80 && at(2) == 0x80) ? 3 : 0;  // U+3000
  return 0;
}

void append_normalized_whitespace(std::string& out, std::string_view text) {
  size_t i = 0;
  size_t run_start = 0;
  while (i < text.size()) {
    size_t n = unicode_space_length(text, i);
    if (n == 0) {
      ++i;
      continue;
    }
    out.append(text.data() + run_start, i - run_start);
    bool line_break = false;
    while (i < text.size() && (n = unicode_space_length(text, i)) != 0) {
      line_break |= text[i] == '\n' || text[i] == '\r';
      i += n;
    }
    out.push_back(line_break ? '\n' : ' ');
    run_start = i;
  }
  out.append(text.data() + run_start, text.size() - run_start);
}

std::string_view trim_unicode_space(std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t n = unicode_space_length(text, start);
    if (n == 0) break;
    start += n;
  }
  text.remove_prefix(start);
  // From the end: whitespace characters are 1 to 3 bytes; test each candidate start.
  while (!text.empty()) {
    size_t cut = 0;
    for (size_t len = 1; len <= 3 && len <= text.size(); ++len) {
      size_t pos = text.size() - len;
      if (unicode_space_length(text, pos) == len) {
        cut = len;
        break;
      }
    }
    if (cut == 0) break;
    text.remove_suffix(cut);
  }
  return text;
}

bool is_blank_unicode(std::string_view text) { return trim_unicode_space(text).empty(); }

}  // namespace winnow
