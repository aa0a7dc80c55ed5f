#include "text/char_classes.h"

#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/utf8.h"
#include "text/python_text.h"

namespace winnow {

namespace {

// The byte-level classes, before the non-ASCII pass.
struct ByteCounts {
  uint64_t continuation = 0, leads = 0, digits = 0, letters = 0, alnum_extra = 0, white = 0,
           parentheses = 0, hashes = 0, newlines = 0;
  ByteCounts& operator+=(const ByteCounts& o) {
    continuation += o.continuation;
    leads += o.leads;
    digits += o.digits;
    letters += o.letters;
    alnum_extra += o.alnum_extra;
    white += o.white;
    parentheses += o.parentheses;
    hashes += o.hashes;
    newlines += o.newlines;
    return *this;
  }
};

ByteCounts count_bytes_scalar(const unsigned char* p, size_t size) {
  uint32_t hist[4][256] = {};
  size_t i = 0;
  for (; i + 4 <= size; i += 4) {
    ++hist[0][p[i]];
    ++hist[1][p[i + 1]];
    ++hist[2][p[i + 2]];
    ++hist[3][p[i + 3]];
  }
  for (; i < size; ++i) ++hist[0][p[i]];
  uint64_t h[256];
  for (int b = 0; b < 256; ++b) h[b] = uint64_t{hist[0][b]} + hist[1][b] + hist[2][b] + hist[3][b];
  auto range = [&](int from, int to) {
    uint64_t sum = 0;
    for (int b = from; b <= to; ++b) sum += h[b];
    return sum;
  };
  ByteCounts c;
  c.continuation = range(0x80, 0xBF);
  c.leads = range(0xC0, 0xFF);
  c.digits = range('0', '9');
  c.letters = range('a', 'z') + range('A', 'Z');
  c.alnum_extra = h['\n'] + h['?'] + h['!'] + h[','] + h['.'];
  c.white = h['\t'] + h['\n'] + h['\r'] + h['\b'] + h[' '];
  c.parentheses = h['{'] + h['}'] + h['['] + h[']'] + h['('] + h[')'];
  c.hashes = h['#'];
  c.newlines = h['\n'];
  return c;
}

#if defined(__SSE2__)
// Counts by compares: each class's mask (0xFF per matching byte) is subtracted from a byte
// counter per class, which can take 255 blocks before it is summed into 64 bits (psadbw).
ByteCounts count_bytes_sse2(const unsigned char* p, size_t size) {
  ByteCounts c;
  const __m128i zero = _mm_setzero_si128();
  auto eq = [](__m128i x, char b) { return _mm_cmpeq_epi8(x, _mm_set1_epi8(b)); };
  // lo <= x <= hi for unsigned bytes: (x - lo) <= (hi - lo), compared signed after a flip.
  auto in_range = [](__m128i x, int lo, int hi) {
    const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
    __m128i shifted = _mm_xor_si128(_mm_sub_epi8(x, _mm_set1_epi8(static_cast<char>(lo))), flip);
    return _mm_cmplt_epi8(shifted, _mm_set1_epi8(static_cast<char>((hi - lo + 1) ^ 0x80)));
  };
  auto sum = [&](__m128i counter) {
    __m128i s = _mm_sad_epu8(counter, zero);
    return static_cast<uint64_t>(_mm_cvtsi128_si64(s)) +
           static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s)));
  };
  size_t i = 0;
  while (i + 16 <= size) {
    __m128i cont = zero, lead = zero, digit = zero, letter = zero, extra = zero, white = zero,
            paren = zero, hash = zero, newline = zero;
    for (int block = 0; block < 255 && i + 16 <= size; ++block, i += 16) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      const __m128i top2 = _mm_and_si128(x, _mm_set1_epi8(static_cast<char>(0xC0)));
      cont = _mm_sub_epi8(cont, _mm_cmpeq_epi8(top2, _mm_set1_epi8(static_cast<char>(0x80))));
      lead = _mm_sub_epi8(lead, _mm_cmpeq_epi8(top2, _mm_set1_epi8(static_cast<char>(0xC0))));
      digit = _mm_sub_epi8(digit, in_range(x, '0', '9'));
      letter = _mm_sub_epi8(letter,
                            in_range(_mm_or_si128(x, _mm_set1_epi8(0x20)), 'a', 'z'));  // a-z, A-Z
      const __m128i nl = eq(x, '\n');
      newline = _mm_sub_epi8(newline, nl);
      extra = _mm_sub_epi8(
          extra, _mm_or_si128(_mm_or_si128(nl, eq(x, '?')),
                              _mm_or_si128(_mm_or_si128(eq(x, '!'), eq(x, ',')), eq(x, '.'))));
      white = _mm_sub_epi8(
          white, _mm_or_si128(_mm_or_si128(eq(x, '\t'), nl),
                              _mm_or_si128(_mm_or_si128(eq(x, '\r'), eq(x, '\b')), eq(x, ' '))));
      // ( ) are 0x28 0x29, [ ] 0x5B 0x5D, { } 0x7B 0x7D.
      paren = _mm_sub_epi8(paren, _mm_or_si128(in_range(x, '(', ')'),
                                               _mm_or_si128(_mm_or_si128(eq(x, '['), eq(x, ']')),
                                                            _mm_or_si128(eq(x, '{'), eq(x, '}')))));
      hash = _mm_sub_epi8(hash, eq(x, '#'));
    }
    c += ByteCounts{sum(cont),  sum(lead),  sum(digit), sum(letter), sum(extra),
                    sum(white), sum(paren), sum(hash),  sum(newline)};
  }
  c += count_bytes_scalar(p + i, size - i);  // the last bytes, fewer than 16
  return c;
}
#endif

CharCounts finish(std::string_view text, const ByteCounts& b) {
  CharCounts c;
  c.chars = static_cast<uint32_t>(text.size() - b.continuation);
  c.digits = static_cast<uint32_t>(b.digits);
  c.nemo_alnum = static_cast<uint32_t>(b.letters + b.digits + b.alnum_extra);
  c.white_space = static_cast<uint32_t>(b.white);
  c.parentheses = static_cast<uint32_t>(b.parentheses);
  c.hashes = static_cast<uint32_t>(b.hashes);
  c.newlines = static_cast<uint32_t>(b.newlines);
  c.letters = static_cast<uint32_t>(b.letters);
  if (b.leads > 0 || b.continuation > 0) {
    // Non-ASCII letters (str.isalpha) and the ⟨ ⟩ brackets need decoding.
    const char* q = text.data();
    const char* end = q + text.size();
    while (q < end) {
#if defined(__SSE2__)
      // Most such texts are ASCII but for a few dashes or quotes: runs of ASCII are stepped
      // over 16 bytes at a time (a byte's top bit is its movemask bit).
      while (q + 16 <= end) {
        const auto high = static_cast<uint32_t>(
            _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q))));
        if (high) {
          q += std::countr_zero(high);
          break;
        }
        q += 16;
      }
      if (q >= end) break;
#endif
      if (static_cast<unsigned char>(*q) < 0x80) {
        ++q;
        continue;
      }
      uint32_t cp = decode_utf8(q, end);
      if (cp == 0x27E8 || cp == 0x27E9) ++c.parentheses;
      if (cp >= 0x80 && is_python_alpha(cp)) ++c.letters;
    }
  }
  return c;
}

}  // namespace

CharCounts count_char_classes_scalar(std::string_view text) {
  return finish(
      text, count_bytes_scalar(reinterpret_cast<const unsigned char*>(text.data()), text.size()));
}

CharCounts count_char_classes(std::string_view text) {
#if defined(__SSE2__)
  return finish(text,
                count_bytes_sse2(reinterpret_cast<const unsigned char*>(text.data()), text.size()));
#else
  return count_char_classes_scalar(text);
#endif
}

}  // namespace winnow
