#pragma once
// The few UTF-8 facts core needs; normalisation and segmentation live in text/.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace winnow {

// Code points in valid UTF-8 (counts lead bytes; continuation bytes are 10xxxxxx).
size_t count_code_points(std::string_view utf8);
bool is_valid_utf8(std::string_view bytes);
// Appends `bytes` with every invalid sequence replaced by U+FFFD, for echoing bad input.
void append_sanitized_utf8(std::string& out, std::string_view bytes);
// Appends code point `cp` (at most U+10FFFF, not a surrogate) encoded as UTF-8.
void append_utf8(std::string& out, uint32_t cp);

}  // namespace winnow
