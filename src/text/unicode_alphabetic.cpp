#include "text/unicode_alphabetic.h"

#include <unicode/uchar.h>

#include "core/ascii.h"
#include "text/python_text.h"

namespace winnow {

bool has_alphabetic(std::string_view utf8) {
  bool non_ascii = false;
  for (char c : utf8) {
    if (is_ascii_alpha(c)) return true;
    non_ascii |= (static_cast<unsigned char>(c) & 0x80) != 0;
  }
  if (!non_ascii) return false;
  const char* p = utf8.data();
  const char* end = p + utf8.size();
  while (p < end) {
    if (static_cast<unsigned char>(*p) < 0x80) {
      ++p;
      continue;
    }
    const char* start = p;
    const uint32_t cp = decode_utf8(p, end);
    // One byte consumed for a non-ASCII byte: ill-formed (decode_utf8 returns the byte itself).
    if (p - start > 1 && u_isUAlphabetic(static_cast<UChar32>(cp))) return true;
  }
  return false;
}

}  // namespace winnow
