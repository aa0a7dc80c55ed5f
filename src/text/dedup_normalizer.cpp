#include "text/dedup_normalizer.h"

#include <utf8proc.h>

#include "core/ascii.h"
#include "text/python_text.h"

namespace winnow {

namespace {

bool is_space(utf8proc_int32_t cp) {
  if (cp == ' ' || (cp >= '\t' && cp <= '\r')) return true;
  if (cp < 0x80) return false;
  utf8proc_category_t c = utf8proc_category(cp);
  return c == UTF8PROC_CATEGORY_ZS || c == UTF8PROC_CATEGORY_ZL || c == UTF8PROC_CATEGORY_ZP ||
         cp == 0x85;
}

void append_code_point(std::string& out, utf8proc_int32_t cp) {
  utf8proc_uint8_t buf[4];
  utf8proc_ssize_t n = utf8proc_encode_char(cp, buf);
  out.append(reinterpret_cast<const char*>(buf), static_cast<size_t>(n));
}

// Calls f(code point) for every code point of valid UTF-8; invalid bytes become U+FFFD.
template <typename F>
void for_each_code_point(std::string_view text, F&& f) {
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  utf8proc_ssize_t left = static_cast<utf8proc_ssize_t>(text.size());
  while (left > 0) {
    if (*p < 0x80) {
      f(static_cast<utf8proc_int32_t>(*p));
      ++p;
      --left;
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t n = utf8proc_iterate(p, left, &cp);
    if (n <= 0) {
      cp = 0xFFFD;
      n = 1;
    }
    f(cp);
    p += n;
    left -= n;
  }
}

// Appends cp, collapsing whitespace: a space is only written before the next non-space.
struct SpaceCollapser {
  std::string& out;
  bool pending = false;
  void space() { pending = !out.empty(); }
  void put(utf8proc_int32_t cp) {
    if (pending) out += ' ';
    pending = false;
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else {
      append_code_point(out, cp);
    }
  }
};

}  // namespace

void normalize_for_word_shingles(std::string_view text, std::string& out) {
  out.clear();
  out.reserve(text.size());
  SpaceCollapser sink{out};
  for_each_code_point(text, [&](utf8proc_int32_t cp) {
    if (cp < 0x80) {
      if (is_space(cp)) return sink.space();
      char ascii = static_cast<char>(cp);
      if (is_ascii_alpha(ascii)) return sink.put(ascii_lower(ascii));
      if (is_ascii_digit(ascii)) return sink.put('0');
      if (cp < 0x20 || cp == 0x7F) return;  // other controls
      // ASCII punctuation and symbols: datatrove removes punctuation; symbols like $ + < = >
      // ^ ` | ~ are Unicode symbols (S*), kept.
      if (is_unicode_punctuation(static_cast<uint32_t>(cp))) return;
      return sink.put(cp);
    }
    if (is_space(cp)) return sink.space();
    if (is_unicode_punctuation(static_cast<uint32_t>(cp))) return;
    const utf8proc_category_t c = utf8proc_category(cp);
    if (c == UTF8PROC_CATEGORY_ND) return sink.put('0');
    if (c == UTF8PROC_CATEGORY_CC || c == UTF8PROC_CATEGORY_CF) return;
    // Lower case, then decompose and drop combining marks (diacritics).
    utf8proc_int32_t decomposed[8];
    int last_boundclass = 0;
    utf8proc_ssize_t n = utf8proc_decompose_char(
        utf8proc_tolower(cp), decomposed, 8,
        static_cast<utf8proc_option_t>(UTF8PROC_DECOMPOSE | UTF8PROC_STRIPMARK), &last_boundclass);
    if (n <= 0 || n > 8) return sink.put(utf8proc_tolower(cp));
    for (utf8proc_ssize_t i = 0; i < n; ++i) sink.put(decomposed[i]);
  });
}

void lower_and_collapse_whitespace(std::string_view text, std::string& out) {
  out.clear();
  out.reserve(text.size());
  SpaceCollapser sink{out};
  for_each_code_point(text, [&](utf8proc_int32_t cp) {
    if (is_space(cp)) return sink.space();
    if (cp < 0x80) return sink.put(ascii_lower(static_cast<char>(cp)));
    sink.put(utf8proc_tolower(cp));
  });
}

}  // namespace winnow
