#include "core/utf8.h"

// simdjson validates UTF-8; the GPU-only build (cmake/gpu_only.cmake), which has no simdjson,
// validates with the scalar rule below (RFC 3629: the same verdicts, more slowly).
#ifndef WINNOW_NO_SIMDJSON
#include <simdjson.h>
#endif

#include <cstdint>
#include <cstring>

namespace winnow {

size_t count_code_points(std::string_view utf8) {
  // Code points = bytes - continuation bytes, eight bytes at a time: every filter measures
  // lengths with this.
  const char* p = utf8.data();
  size_t n = utf8.size(), i = 0, continuation = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x;
    std::memcpy(&x, p + i, 8);
    // One bit (bit 7) per continuation byte; moved to bit 0 they sum by one multiply.
    uint64_t m = (x & ~(x << 1) & 0x8080808080808080ULL) >> 7;
    continuation += static_cast<size_t>((m * 0x0101010101010101ULL) >> 56);
  }
  for (; i < n; ++i) continuation += is_utf8_continuation(p[i]);
  return n - continuation;
}

namespace {
size_t valid_sequence_length(std::string_view s, size_t i);
}  // namespace

bool is_valid_utf8(std::string_view bytes) {
#ifndef WINNOW_NO_SIMDJSON
  return simdjson::validate_utf8(bytes.data(), bytes.size());
#else
  for (size_t i = 0; i < bytes.size();) {
    const size_t length = valid_sequence_length(bytes, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
#endif
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
    if (!is_utf8_continuation(s[i + k])) return 0;
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

std::string_view utf8_prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  while (end > 0 && is_utf8_continuation(text[end])) --end;
  return text.substr(0, end);
}

std::string_view code_point_prefix(std::string_view text, size_t max_code_points) {
  size_t i = 0;
  for (; i < text.size(); ++i) {
    if (!is_utf8_continuation(text[i]) && max_code_points-- == 0) break;
  }
  return text.substr(0, i);
}

}  // namespace winnow
