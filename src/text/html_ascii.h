#pragma once
// The ASCII character classes HTML's syntax is defined in (tag and attribute names, the
// whitespace between them), locale-free: the HTML code runs them over every byte of every page.
#include <string>
#include <string_view>

namespace winnow {

inline bool is_ascii_alpha(char c) { return (c | 32) >= 'a' && (c | 32) <= 'z'; }
inline bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_ascii_alnum(char c) { return is_ascii_alpha(c) || is_ascii_digit(c); }
inline char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }
// HTML's "ASCII whitespace": space, tab, line feed, form feed, carriage return.
inline bool is_html_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
inline std::string ascii_lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

}  // namespace winnow
