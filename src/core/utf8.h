#pragma once
// The few UTF-8 facts core needs; normalisation and segmentation live in text/.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace winnow {

// A continuation byte (10xxxxxx): never the first byte of a code point, so code points are
// counted, cut and stepped over by skipping these.
inline bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Code points in valid UTF-8 (counts the bytes that are not continuation bytes).
size_t count_code_points(std::string_view utf8);
// The offset in `utf8` (not empty) where its last code point starts: back over at most three
// continuation bytes, so invalid input cannot make it walk further.
inline size_t last_code_point_start(std::string_view utf8) {
  size_t p = utf8.size() - 1;
  while (p > 0 && is_utf8_continuation(utf8[p]) && utf8.size() - p < 4) --p;
  return p;
}
// The longest prefix of `text` of at most `max_bytes` bytes that does not end inside a UTF-8
// sequence (for caps on what is parsed or shown).
std::string_view utf8_prefix(std::string_view text, size_t max_bytes);
// The first `max_code_points` code points of `text` (all of it when it has fewer), as Python's
// text[:n] cuts a str (NeMo's classifiers cut texts so before tokenising).
std::string_view code_point_prefix(std::string_view text, size_t max_code_points);
bool is_valid_utf8(std::string_view bytes);
// Appends `bytes` with every invalid sequence replaced by U+FFFD, for echoing bad input.
void append_sanitized_utf8(std::string& out, std::string_view bytes);
// Appends code point `cp` (at most U+10FFFF, not a surrogate) encoded as UTF-8.
void append_utf8(std::string& out, uint32_t cp);

}  // namespace winnow
