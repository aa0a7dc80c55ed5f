#pragma once
// ASCII character classes, case folding and trimming: the one set every layer uses (HTML
// syntax, HTTP and WARC headers, JSON framing, file names, the phrases filters look for).
// Plain byte tests, not <cctype>: those follow the C locale, take an int (a negative char is
// undefined behaviour) and cost a call per byte where these inline to a compare. Bytes >= 0x80
// (UTF-8) are never letters, digits or space here and are copied unchanged by the case
// functions. UTF-8 facts are in core/utf8.h; Python's Unicode-aware str methods in
// text/python_text.h.
#include <string>
#include <string_view>

namespace winnow {

inline bool is_ascii_upper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool is_ascii_alpha(char c) { return (c | 32) >= 'a' && (c | 32) <= 'z'; }
inline bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_ascii_hex_digit(char c) {
  return is_ascii_digit(c) || ((c | 32) >= 'a' && (c | 32) <= 'f');
}
inline bool is_ascii_alnum(char c) { return is_ascii_alpha(c) || is_ascii_digit(c); }

// WHATWG's "ASCII whitespace" (HTML's separators): space, tab, line feed, form feed, carriage
// return. kAsciiWhitespace is the same set for the trim functions below.
inline bool is_ascii_whitespace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
inline constexpr std::string_view kAsciiWhitespace = " \t\n\f\r";
// JSON's whitespace (RFC 8259): ASCII whitespace without the form feed.
inline bool is_json_whitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
inline constexpr std::string_view kJsonWhitespace = " \t\n\r";

inline char ascii_lower(char c) { return is_ascii_upper(c) ? static_cast<char>(c + 32) : c; }
inline char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; }

// `s` with its ASCII letters lowered into `out` (resized to s.size(); no allocation once
// `out` is large enough, so a thread_local buffer serves every document). Byte offsets are
// kept, so positions found in `out` index `s`.
void ascii_lower(std::string_view s, std::string& out);
inline std::string ascii_lowered(std::string_view s) {
  std::string out;
  ascii_lower(s, out);
  return out;
}

// Equal once both are ASCII-lowered ("Content-Type" and "content-type").
inline bool ascii_iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}
inline bool ascii_iends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && ascii_iequals(s.substr(s.size() - suffix.size()), suffix);
}

// `s` without the leading / trailing / both bytes that are in `chars` (Python's
// bytes.lstrip(chars) / rstrip / strip).
inline std::string_view ascii_trim_start(std::string_view s,
                                         std::string_view chars = kAsciiWhitespace) {
  size_t start = s.find_first_not_of(chars);
  return start == std::string_view::npos ? s.substr(s.size()) : s.substr(start);
}
inline std::string_view ascii_trim_end(std::string_view s,
                                       std::string_view chars = kAsciiWhitespace) {
  size_t last = s.find_last_not_of(chars);
  return last == std::string_view::npos ? s.substr(0, 0) : s.substr(0, last + 1);
}
inline std::string_view ascii_trim(std::string_view s, std::string_view chars = kAsciiWhitespace) {
  return ascii_trim_end(ascii_trim_start(s, chars), chars);
}

}  // namespace winnow
