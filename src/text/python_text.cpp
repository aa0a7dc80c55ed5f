#include "text/python_text.h"

#include <unicode/uchar.h>
#include <utf8proc.h>

#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/ascii.h"
#include "core/utf8.h"

namespace winnow {

bool is_python_alpha(uint32_t cp) {
  if (cp < 0x80) return is_ascii_alpha(static_cast<char>(cp));
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
      return true;
    default:
      return false;
  }
}

bool is_unicode_punctuation(uint32_t cp) {
  const utf8proc_category_t c = utf8proc_category(static_cast<utf8proc_int32_t>(cp));
  return c >= UTF8PROC_CATEGORY_PC && c <= UTF8PROC_CATEGORY_PO;
}

bool is_punctuation_or_symbol(uint32_t cp) {
  if (is_unicode_punctuation(cp)) return true;
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_SM:
    case UTF8PROC_CATEGORY_SC:
    case UTF8PROC_CATEGORY_SK:
    case UTF8PROC_CATEGORY_SO:
    case UTF8PROC_CATEGORY_CC:
      return true;
    default:
      return false;
  }
}

bool is_sentence_terminal(uint32_t cp) {
  if (cp < 0x80) return cp == '.' || cp == '!' || cp == '?';
  return u_hasBinaryProperty(static_cast<UChar32>(cp), UCHAR_S_TERM);
}

// Python counts code points; so does core's count, invalid bytes one each as U+FFFD would.
size_t python_len(std::string_view s) { return count_code_points(s); }

namespace {

const void* memmem_from(std::string_view haystack, std::string_view needle, size_t from) {
  return memmem(haystack.data() + from, haystack.size() - from, needle.data(), needle.size());
}

}  // namespace

// Candidates are the positions where both the needle's first and last bytes match, 16 at a
// time (SSE2, baseline on x86-64), then checked with memcmp: in text, a pair of bytes k - 1
// apart matches rarely, so this reads each byte about twice and is several times faster than
// glibc's memmem on the phrases and n-grams the filters look for. A needle whose two bytes
// match everywhere (runs of one letter) would make every position a candidate; once the
// checks have compared more bytes than the scan has passed, the rest goes to memmem, which is
// linear whatever the input.
size_t find_bytes(std::string_view haystack, std::string_view needle, size_t from) {
  if (from > haystack.size()) return std::string_view::npos;
  const size_t k = needle.size();
  if (k == 0) return from;
  if (k == 1) return haystack.find(needle[0], from);
  if (haystack.size() - from < k) return std::string_view::npos;
  const char* base = haystack.data();
  const size_t last = haystack.size() - k;  // the last position a match can start at
  size_t i = from;
#if defined(__SSE2__)
  const __m128i first_byte = _mm_set1_epi8(needle[0]);
  const __m128i last_byte = _mm_set1_epi8(needle[k - 1]);
  size_t checked = 0;  // bytes compared by memcmp
  for (; i + 16 <= last + 1; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + i + k - 1));
    auto mask = static_cast<uint32_t>(_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpeq_epi8(a, first_byte), _mm_cmpeq_epi8(b, last_byte))));
    while (mask) {
      const size_t at = i + static_cast<size_t>(std::countr_zero(mask));
      if (std::memcmp(base + at + 1, needle.data() + 1, k - 2) == 0) return at;
      checked += k;
      mask &= mask - 1;
    }
    if (checked > i - from + 4096) break;  // degenerate input: linear memmem for the rest
  }
#endif
  const void* hit = memmem_from(haystack, needle, i);
  return hit ? static_cast<size_t>(static_cast<const char*>(hit) - base) : std::string_view::npos;
}

namespace {

// Length in bytes of the whitespace code point starting at `p`, or 0.
size_t space_at(const char* p, const char* end) {
  const char* q = p;
  uint32_t cp = decode_utf8(q, end);
  return is_python_space(cp) ? static_cast<size_t>(q - p) : 0;
}

}  // namespace

std::string_view python_lstrip(std::string_view s) {
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    size_t n = space_at(p, end);
    if (!n) break;
    p += n;
  }
  return {p, static_cast<size_t>(end - p)};
}

std::string_view python_rstrip(std::string_view s) {
  const char* begin = s.data();
  const char* end = begin + s.size();
  while (end > begin) {
    const char* start = begin + last_code_point_start({begin, static_cast<size_t>(end - begin)});
    if (space_at(start, end) != static_cast<size_t>(end - start)) break;
    end = start;
  }
  return {begin, static_cast<size_t>(end - begin)};
}

std::string_view python_strip(std::string_view s) { return python_rstrip(python_lstrip(s)); }

void python_splitlines(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  const char* begin = s.data();
  const char* end = begin + s.size();
  const char* start = begin;
  const char* p = begin;
  while (p < end) {
    const char* here = p;
    uint32_t cp = decode_utf8(p, end);
    bool boundary = cp == '\n' || cp == '\r' || cp == 0x0B || cp == 0x0C || cp == 0x1C ||
                    cp == 0x1D || cp == 0x1E || cp == 0x85 || cp == 0x2028 || cp == 0x2029;
    if (!boundary) continue;
    out.emplace_back(start, static_cast<size_t>(here - start));
    if (cp == '\r' && p < end && *p == '\n') ++p;
    start = p;
  }
  if (start < end) out.emplace_back(start, static_cast<size_t>(end - start));
}

size_t count_occurrences(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) return 0;
  size_t count = 0;
  size_t pos = 0;
  while ((pos = find_bytes(haystack, needle, pos)) != std::string_view::npos) {
    ++count;
    pos += needle.size();
  }
  return count;
}

}  // namespace winnow
