#pragma once
// Python's str semantics on UTF-8, as the NeMo Curator and datatrove filters see text: len()
// counts code points, split() and strip() use str.isspace, splitlines() knows its 11 line
// boundaries, isalpha() is the Unicode letter categories. Filters built on these give the same
// decisions as the Python code they replace.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

// Decodes the code point at `p` (< end) and advances `p`. An invalid byte decodes as itself
// (one code point), as U+FFFD replacement would count it once.
inline uint32_t decode_utf8(const char*& p, const char* end) {
  auto b0 = static_cast<unsigned char>(*p);
  if (b0 < 0x80) {
    ++p;
    return b0;
  }
  int extra = b0 >= 0xF0 ? 3 : b0 >= 0xE0 ? 2 : b0 >= 0xC0 ? 1 : 0;
  if (extra == 0 || end - p <= extra) {
    ++p;
    return b0;
  }
  uint32_t cp = b0 & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    auto b = static_cast<unsigned char>(p[k]);
    if ((b & 0xC0) != 0x80) {
      ++p;
      return b0;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  p += extra + 1;
  return cp;
}

// Bits set in x. The build targets baseline x86-64 (no POPCNT instruction), where
// std::popcount is a call into libgcc; this SWAR form is a handful of inline instructions.
inline int popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

// str.isspace(): Unicode White_Space plus the ASCII separators \x1c-\x1f.
inline bool is_python_space(uint32_t cp) {
  if (cp < 0x80) return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20);
  return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
         cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// str.isalpha() for one code point: general category L* (Lu, Ll, Lt, Lm, Lo).
bool is_python_alpha(uint32_t cp);
// Unicode general category P* (Pc, Pd, Ps, Pe, Pi, Pf, Po) in utf8proc's tables: the one test
// of "punctuation" that the text filters, dedup normalisation and the tokenizers build on.
bool is_unicode_punctuation(uint32_t cp);
// Unicode general category P* or S* (punctuation and symbols), or a control character.
bool is_punctuation_or_symbol(uint32_t cp);
// Unicode Sentence_Terminal (., !, ?, 。, ।, ...): lines ending in one "end in punctuation".
bool is_sentence_terminal(uint32_t cp);

// Code points in `s` (Python len()).
size_t python_len(std::string_view s);
// str.strip() / lstrip() / rstrip() with no argument.
std::string_view python_strip(std::string_view s);
std::string_view python_lstrip(std::string_view s);
std::string_view python_rstrip(std::string_view s);
// str.lower() before a search for ASCII phrases: ascii_lower (core/ascii.h). Python lowers
// every cased letter, but only two non-ASCII letters lower to ASCII-bearing strings (U+0130 →
// "i̇", U+212A KELVIN → "k"); those are the one place it differs, and it is documented.
// str.splitlines(): pieces between \n, \r, \r\n, \v, \f, \x1c, \x1d, \x1e, \x85, \u2028, \u2029.
void python_splitlines(std::string_view s, std::vector<std::string_view>& out);
// haystack.find(needle, from): candidates by first and last byte with SSE2, checked with
// memcmp, falling back to glibc's memmem (linear) on degenerate input (python_text.cpp).
size_t find_bytes(std::string_view haystack, std::string_view needle, size_t from = 0);
// Non-overlapping occurrences of `needle` (non-empty), as str.count() finds them.
size_t count_occurrences(std::string_view haystack, std::string_view needle);

}  // namespace winnow
