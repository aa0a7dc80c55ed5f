#include "core/utf8.h"

#include <simdjson.h>

#include <cstdint>

namespace winnow {

size_t count_code_points(std::string_view utf8) {
  size_t count = 0;
  for (unsigned char c : utf8) count += (c & 0xC0) != 0x80;
  return count;
}

bool is_valid_utf8(std::string_view bytes) {
  return simdjson::validate_utf8(bytes.data(), bytes.size());
}

namespace {
// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid (RFC 3629 ranges).
size_t valid_sequence_length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  uint8_t c = byte(i);
  if (c < 0x80) return 1;
  size_t n;
  uint8_t lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c == 0xE0) {
    n = 3;
    lo = 0xA0;
  } else if (c >= 0xE1 && c <= 0xEC)
    n = 3;
  else if (c == 0xED) {
    n = 3;
    hi = 0x9F;
  } else if (c >= 0xEE && c <= 0xEF)
    n = 3;
  else if (c == 0xF0) {
    n = 4;
    lo = 0x90;
  } else if (c >= 0xF1 && c <= 0xF3)
    n = 4;
  else if (c == 0xF4) {
    n = 4;
    hi = 0x8F;
  } else
    return 0;
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return n;
}
}  // namespace

void append_sanitized_utf8(std::string& out, std::string_view bytes) {
  size_t i = 0;
  while (i < bytes.size()) {
    size_t n = valid_sequence_length(bytes, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(bytes.data() + i, n);
      i += n;
    }
  }
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace winnow
