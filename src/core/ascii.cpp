#include "core/ascii.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace winnow {

void ascii_lower(std::string_view s, std::string& out) {
  out.resize(s.size());
  const char* in = s.data();
  char* o = out.data();
  size_t i = 0;
#if defined(__SSE2__)
  // 16 bytes at a time (SSE2 is baseline x86-64): add 0x20 where 'A' <= byte <= 'Z'. Signed
  // compares are right: bytes >= 0x80 are negative and never in range.
  const __m128i a = _mm_set1_epi8('A' - 1), z = _mm_set1_epi8('Z' + 1), bit = _mm_set1_epi8(0x20);
  for (; i + 16 <= s.size(); i += 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    __m128i upper = _mm_and_si128(_mm_cmpgt_epi8(x, a), _mm_cmplt_epi8(x, z));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + i), _mm_add_epi8(x, _mm_and_si128(upper, bit)));
  }
#endif
  for (; i < s.size(); ++i) o[i] = ascii_lower(in[i]);
}

}  // namespace winnow
