#pragma once
// Character classes of a text counted in one pass: what NeMo's character filters (non-alpha-
// numeric, numbers, white space, parentheses, symbols-to-words) and the code filters divide.
// Lengths are in code points, as Python's len() counts them.
#include <cstdint>
#include <string_view>

namespace winnow {

struct CharCounts {
  uint32_t chars = 0;        // code points (len(text))
  uint32_t nemo_alnum = 0;   // in [a-zA-Z0-9\n?!,.] (NeMo's NonAlphaNumeric keeps these)
  uint32_t digits = 0;       // [0-9]
  uint32_t white_space = 0;  // \t \n \r \b and space (NeMo's WhiteSpace list)
  uint32_t parentheses = 0;  // { } ⟨ ⟩ [ ] ( )
  uint32_t letters = 0;      // str.isalpha() code points
  uint32_t hashes = 0;       // '#'
  uint32_t newlines = 0;     // '\n'
  bool operator==(const CharCounts&) const = default;
};

// The counts: the ASCII classes by SSE2 compares 16 bytes at a time (baseline on x86-64),
// then, only for a text with non-ASCII bytes, one decoding pass for its non-ASCII letters and
// the ⟨ ⟩ brackets.
CharCounts count_char_classes(std::string_view text);
// The same from a byte histogram, byte by byte: the reference the SIMD path is tested against
// (and the path on targets without SSE2).
CharCounts count_char_classes_scalar(std::string_view text);

}  // namespace winnow
