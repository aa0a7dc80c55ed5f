#include "io/json_members.h"

#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/ascii.h"

namespace winnow {

namespace {

// Returns the index just past the closing quote of the string opening at `i`. A rejected
// document's record is split into members to add its drop reason, so its whole text passes
// through here: the bytes that are neither a quote nor a backslash are stepped over 16 at a time.
size_t skip_string(std::string_view s, size_t i) {
  ++i;
  while (i < s.size()) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    while (i + 16 <= s.size()) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
      const auto mask = static_cast<uint32_t>(
          _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash))));
      if (mask) {
        i += static_cast<size_t>(std::countr_zero(mask));
        break;
      }
      i += 16;
    }
    if (i >= s.size()) break;
#endif
    if (s[i] == '\\') {
      i += 2;
    } else if (s[i] == '"') {
      return i + 1;
    } else {
      ++i;
    }
  }
  return s.size();
}

// Returns the index just past the value starting at `i`.
size_t skip_value(std::string_view s, size_t i) {
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] == '{' || s[i] == '[') {
    int depth = 0;
    while (i < s.size()) {
      char c = s[i];
      if (c == '"') {
        i = skip_string(s, i);
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
      ++i;
    }
    return s.size();
  }
  while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && !is_json_whitespace(s[i]))
    ++i;
  return i;
}

}  // namespace

void split_members(std::string_view s, std::vector<JsonMember>& members) {
  members.clear();
  size_t i = 0;
  while (i < s.size() && s[i] != '{') ++i;
  ++i;
  while (i < s.size()) {
    while (i < s.size() && (is_json_whitespace(s[i]) || s[i] == ',')) ++i;
    if (i >= s.size() || s[i] == '}') return;
    size_t key_start = i;
    size_t key_end = skip_string(s, i);
    i = key_end;
    while (i < s.size() && (is_json_whitespace(s[i]) || s[i] == ':')) ++i;
    size_t value_end = skip_value(s, i);
    members.push_back({s.substr(key_start + 1, key_end - key_start - 2),
                       s.substr(key_start, value_end - key_start)});
    i = value_end;
  }
}

}  // namespace winnow
