#include "text/mojibake.h"

#include <cstdint>

#include "core/ascii.h"
#include "core/utf8.h"

namespace winnow {

namespace {

// Decodes the code point at s[i] of valid UTF-8; returns its length in bytes.
size_t decode(std::string_view s, size_t i, uint32_t& cp) {
  auto b = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  uint8_t c = b(0);
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if (c < 0xE0 && i + 1 < s.size()) {
    cp = (uint32_t(c & 0x1F) << 6) | (b(1) & 0x3F);
    return 2;
  }
  if (c < 0xF0 && i + 2 < s.size()) {
    cp = (uint32_t(c & 0x0F) << 12) | (uint32_t(b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    return 3;
  }
  if (i + 3 < s.size()) {
    cp = (uint32_t(c & 0x07) << 18) | (uint32_t(b(1) & 0x3F) << 12) | (uint32_t(b(2) & 0x3F) << 6) |
         (b(3) & 0x3F);
    return 4;
  }
  cp = 0xFFFD;  // truncated: only reachable with invalid input
  return 1;
}

// The byte 0x80..0xBF (a UTF-8 continuation byte) that `cp` stands for when the bytes were
// decoded as Windows-1252, or as Latin-1 (which yields the C1 controls U+0080..U+009F, also
// what browsers produce for the five bytes Windows-1252 leaves undefined); -1 otherwise.
int continuation_byte(uint32_t cp) {
  if (cp >= 0x80 && cp <= 0xBF) return static_cast<int>(cp);
  switch (cp) {
    case 0x20AC:
      return 0x80;  // €
    case 0x201A:
      return 0x82;  // ‚
    case 0x0192:
      return 0x83;  // ƒ
    case 0x201E:
      return 0x84;  // „
    case 0x2026:
      return 0x85;  // …
    case 0x2020:
      return 0x86;  // †
    case 0x2021:
      return 0x87;  // ‡
    case 0x02C6:
      return 0x88;  // ˆ
    case 0x2030:
      return 0x89;  // ‰
    case 0x0160:
      return 0x8A;  // Š
    case 0x2039:
      return 0x8B;  // ‹
    case 0x0152:
      return 0x8C;  // Œ
    case 0x017D:
      return 0x8E;  // Ž
    case 0x2018:
      return 0x91;  // ‘
    case 0x2019:
      return 0x92;  // ’
    case 0x201C:
      return 0x93;  // “
    case 0x201D:
      return 0x94;  // ”
    case 0x2022:
      return 0x95;  // •
    case 0x2013:
      return 0x96;  // –
    case 0x2014:
      return 0x97;  // —
    case 0x02DC:
      return 0x98;  // ˜
    case 0x2122:
      return 0x99;  // ™
    case 0x0161:
      return 0x9A;  // š
    case 0x203A:
      return 0x9B;  // ›
    case 0x0153:
      return 0x9C;  // œ
    case 0x017E:
      return 0x9E;  // ž
    case 0x0178:
      return 0x9F;  // Ÿ
    default:
      return -1;
  }
}

bool is_latin_letter(uint32_t cp) {
  return (cp < 0x80 && is_ascii_alpha(static_cast<char>(cp))) ||
         (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7);
}

// Characters that real text contains and a mis-decoding produces; a sequence decoding to
// anything else (C1 controls, IPA, Latin Extended-B, NKo, private use, noncharacters) is more
// likely legitimate text that happens to look like mojibake.
bool plausible(uint32_t cp) {
  if (cp < 0xA0) return false;
  if (cp < 0x800) {
    return cp <= 0x17F ||                   // Latin-1 Supplement, Latin Extended-A
           (cp >= 0x370 && cp <= 0x3FF) ||  // Greek
           (cp >= 0x400 && cp <= 0x4FF) ||  // Cyrillic
           (cp >= 0x5D0 && cp <= 0x5EA) ||  // Hebrew letters
           (cp >= 0x600 && cp <= 0x6FF);    // Arabic
  }
  if (cp < 0x10000) {
    return cp >= 0x900 && !(cp >= 0xD800 && cp <= 0xF8FF) && !(cp >= 0xFDD0 && cp <= 0xFDEF) &&
           cp < 0xFFFE;
  }
  return (cp >= 0x1F000 && cp <= 0x1FAFF) ||  // emoji and pictographs
         (cp >= 0x20000 && cp <= 0x3134F);    // CJK extensions
}

struct ScanResult {
  size_t count = 0;
  size_t ideographic = 0;  // sequences decoding to CJK and other scripts from U+2E80 on
};

// Walks `s`, finding mojibake sequences; appends the repaired text to `out` when given.
// `after_letters` also takes ideographic sequences directly after a Latin letter: "café…”"
// reads as a CJK ideograph, so such sequences count only in text already known to hold CJK
// mojibake elsewhere.
ScanResult scan(std::string_view s, std::string* out, bool after_letters) {
  ScanResult result;
  size_t i = 0;
  size_t copied = 0;      // bytes of s already appended to out
  size_t last_match = 0;  // end of the previous repaired sequence
  uint32_t previous = 0;  // the code point before position i
  while (i < s.size()) {
    uint32_t lead;
    size_t lead_len = decode(s, i, lead);
    size_t n = 0;  // length of the UTF-8 sequence the lead byte announces
    if (lead >= 0xC2 && lead <= 0xDF)
      n = 2;
    else if (lead >= 0xE0 && lead <= 0xEF)
      n = 3;
    else if (lead >= 0xF0 && lead <= 0xF4)
      n = 4;
    if (n != 0) {
      uint8_t bytes[4] = {static_cast<uint8_t>(lead), 0, 0, 0};
      size_t j = i + lead_len;
      size_t k = 1;
      for (; k < n && j < s.size(); ++k) {
        uint32_t cp;
        size_t len = decode(s, j, cp);
        int byte = continuation_byte(cp);
        if (byte < 0) break;
        bytes[k] = static_cast<uint8_t>(byte);
        j += len;
      }
      if (k == n) {
        // Overlong and surrogate forms are not valid UTF-8 (RFC 3629 second-byte ranges).
        bool valid = !(n == 3 && bytes[0] == 0xE0 && bytes[1] < 0xA0) &&
                     !(n == 3 && bytes[0] == 0xED && bytes[1] > 0x9F) &&
                     !(n == 4 && bytes[0] == 0xF0 && bytes[1] < 0x90) &&
                     !(n == 4 && bytes[0] == 0xF4 && bytes[1] > 0x8F);
        uint32_t cp = 0;
        if (n == 2) cp = (uint32_t(bytes[0] & 0x1F) << 6) | (bytes[1] & 0x3F);
        if (n == 3)
          cp = (uint32_t(bytes[0] & 0x0F) << 12) | (uint32_t(bytes[1] & 0x3F) << 6) |
               (bytes[2] & 0x3F);
        if (n == 4)
          cp = (uint32_t(bytes[0] & 0x07) << 18) | (uint32_t(bytes[1] & 0x3F) << 12) |
               (uint32_t(bytes[2] & 0x3F) << 6) | (bytes[3] & 0x3F);
        bool after_word = is_latin_letter(previous) && last_match != i;
        bool ideographic = n == 3 && cp >= 0x2E80;
        if (valid && plausible(cp) && !(ideographic && after_word && !after_letters)) {
          ++result.count;
          result.ideographic += ideographic;
          if (out) {
            out->append(s.data() + copied, i - copied);
            append_utf8(*out, cp);
            copied = j;
          }
          last_match = j;
          previous = cp;
          i = j;
          continue;
        }
      }
    }
    previous = lead;
    i += lead_len;
  }
  if (out) out->append(s.data() + copied, s.size() - copied);
  return result;
}

// Whether `s` holds CJK mojibake in an unambiguous place, making the ambiguous ones credible.
bool lenient(std::string_view s) { return scan(s, nullptr, false).ideographic != 0; }

size_t count(std::string_view s) { return scan(s, nullptr, lenient(s)).count; }

}  // namespace

size_t count_mojibake(std::string_view utf8) { return count(utf8); }

bool repair_mojibake(std::string_view utf8, std::string& out) {
  if (count(utf8) == 0) return false;
  std::string current(utf8), next;
  // Text mis-decoded twice ("Ã©" became "ÃƒÂ©") needs one pass per round.
  for (int pass = 0; pass < 3; ++pass) {
    next.clear();
    if (scan(current, &next, lenient(current)).count == 0) break;
    current.swap(next);
  }
  if (count(current) != 0) return false;
  out = std::move(current);
  return true;
}

}  // namespace winnow
