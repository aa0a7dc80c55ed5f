#include "models/hf_char_classes.h"

#include <unicode/uchar.h>
#include <utf8proc.h>

#include <utility>

#include "text/python_text.h"

namespace winnow::hf_chars {

namespace {

utf8proc_category_t category(char32_t c) {
  return static_cast<utf8proc_category_t>(utf8proc_category(static_cast<utf8proc_int32_t>(c)));
}

// Numbers that Rust's tables (Unicode 17) have and utf8proc's (Unicode 15) do not yet: the
// digits of Garay, Myanmar Extended-C, Sunuwar, Tolong Siki, Gurung Khema, Kirat Rai, the
// outlined digits, Ol Onal, and three Chinese counting numerals (checked against HF one code
// point at a time).
bool is_new_number(char32_t c) {
  static constexpr std::pair<char32_t, char32_t> kRanges[] = {
      {0x10D40, 0x10D49}, {0x116D0, 0x116E3}, {0x11BF0, 0x11BF9},
      {0x11DE0, 0x11DE9}, {0x16130, 0x16139}, {0x16D70, 0x16D79},
      {0x16FF4, 0x16FF6}, {0x1CCF0, 0x1CCF9}, {0x1E5F1, 0x1E5FA}};
  for (const auto& [first, last] : kRanges) {
    if (c >= first && c <= last) return true;
  }
  return false;
}

// BertNormalizer's control characters: control, format, surrogate or private use (not
// unassigned: HF keeps those, checked); tab, newline and return count as whitespace instead.
bool is_control(char32_t c) {
  if (c == '\t' || c == '\n' || c == '\r') return false;
  switch (category(c)) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
      return assigned_by(c, kCategoriesUnicode);
    default:
      return false;
  }
}

// The CJK ideograph blocks BERT puts spaces around (not Hangul, kana or CJK punctuation).
bool is_chinese_char(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// A nonspacing mark (Mn) in Unicode 8.0, as BertNormalizer's strip_accents tests it: U+1734 was
// one then, U+1885, U+1886, U+A9BD and U+111C9 were not.
bool is_nonspacing_mark_8(char32_t c) {
  if (c == 0x1734) return true;
  if (c == 0x1885 || c == 0x1886 || c == 0xA9BD || c == 0x111C9) return false;
  return category(c) == UTF8PROC_CATEGORY_MN && assigned_by(c, kCategoriesUnicode);
}

}  // namespace

bool assigned_by(char32_t c, int major) {
  UVersionInfo age;
  u_charAge(static_cast<UChar32>(c), age);
  return age[0] != 0 && age[0] <= major;
}

bool is_whitespace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

bool is_numeric(char32_t c) {
  if (c < 0x80) return c >= '0' && c <= '9';
  if (c >= 0x10D40 && is_new_number(c)) return true;
  switch (category(c)) {
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      return true;
    default:
      return false;
  }
}

bool is_punctuation(char32_t c) {
  if (c < 0x80) {
    return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
           (c >= 123 && c <= 126);
  }
  // Punctuation in Unicode 8.0, no longer: U+166D (now a symbol), U+111C9 (now a mark).
  if (c == 0x166D || c == 0x111C9) return true;
  return is_unicode_punctuation(c) && assigned_by(c, kCategoriesUnicode);
}

bool is_mark(char32_t c) {
  // Spacing marks in Unicode 9.0, letters now; punctuation then, a mark now.
  if (c == 0x1CF2 || c == 0x1CF3) return true;
  if (c == 0x111C9) return false;
  switch (category(c)) {
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
      return assigned_by(c, kNormalizationUnicode);
    default:
      return false;
  }
}

bool is_word(char32_t c) {
  if (c < 0x80) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }
  if (c == 0x200C || c == 0x200D ||
      u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_ALPHABETIC)) {
    return true;
  }
  auto k = category(c);
  return k == UTF8PROC_CATEGORY_ND || k == UTF8PROC_CATEGORY_PC || is_mark(c);
}

char32_t decode_at(std::string_view text, size_t i, size_t& length) {
  utf8proc_int32_t c = 0;
  utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data()) + i,
                                        static_cast<utf8proc_ssize_t>(text.size() - i), &c);
  length = n > 0 ? static_cast<size_t>(n) : 1;
  return n > 0 ? static_cast<char32_t>(c) : 0xFFFD;
}

char32_t decode_before(std::string_view text, size_t end, size_t& length) {
  size_t start = end - 1;
  while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
    --start;
  }
  char32_t c = decode_at(text, start, length);
  if (start + length != end) {  // not valid UTF-8 there: one byte
    length = 1;
    return 0xFFFD;
  }
  return c;
}

void append_utf8(std::string& out, char32_t c) {
  utf8proc_uint8_t buffer[4];
  utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buffer);
  out.append(reinterpret_cast<const char*>(buffer), static_cast<size_t>(n));
}

std::string to_utf8(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t c : text) append_utf8(out, c);
  return out;
}

std::u32string to_utf32(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t length;
    out.push_back(decode_at(text, i, length));
    i += length;
  }
  return out;
}

namespace {

// The lowercase of the capitals Unicode 16 and 17 added (Rust's tables have them, utf8proc's
// Unicode 15 does not), or 0.
char32_t new_capital_lowercase(char32_t c) {
  switch (c) {
    case 0x1C89:
      return 0x1C8A;
    case 0xA7CB:
      return 0x264;
    case 0xA7CC:
    case 0xA7CE:
    case 0xA7D2:
    case 0xA7D4:
    case 0xA7DA:
      return c + 1;
    case 0xA7DC:
      return 0x19B;
    default:
      break;
  }
  if (c >= 0x10D50 && c <= 0x10D65) return c + 0x20;  // Garay
  if (c >= 0x16EA0 && c <= 0x16EB8) return c + 0x1B;  // Beria Erfe
  return 0;
}

}  // namespace

void append_lowercase(std::u32string& out, char32_t c) {
  if (c == 0x130) {
    out.push_back('i');
    out.push_back(0x307);
    return;
  }
  if (c >= 0x1C89) {
    if (char32_t lower = new_capital_lowercase(c)) {
      out.push_back(lower);
      return;
    }
  }
  out.push_back(static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
}

FirstCharacter bert_normalize(std::string_view text, const BertNormalizerOptions& options,
                              std::u32string& out) {
  FirstCharacter first_character = FirstCharacter::kKept;
  out.clear();
  auto emit = [&](char32_t x) {
    if (options.lowercase) {
      append_lowercase(out, x);
    } else {
      out.push_back(x);
    }
  };
  // HF runs NFD on the whole text and drops the nonspacing marks; decomposing one character at
  // a time gives the same text once the marks (the only characters NFD reorders) are gone.
  auto accents = [&](char32_t x) {
    if (!options.strip_accents || x < 0x80 || !assigned_by(x, kNormalizationUnicode)) {
      emit(x);
      return;
    }
    utf8proc_int32_t parts[8];
    utf8proc_ssize_t n = utf8proc_decompose_char(static_cast<utf8proc_int32_t>(x), parts, 8,
                                                 UTF8PROC_DECOMPOSE, nullptr);
    if (n < 0 || n > 8) {
      emit(x);
      return;
    }
    for (utf8proc_ssize_t k = 0; k < n; ++k) {
      auto part = static_cast<char32_t>(parts[k]);
      if (!is_nonspacing_mark_8(part)) {
        emit(part);
      }
    }
  };
  for (size_t i = 0; i < text.size();) {
    size_t length;
    char32_t c = decode_at(text, i, length);
    const bool first = i == 0;
    const size_t before = out.size();
    i += length;
    if (options.clean_text) {
      if (c == 0 || c == 0xFFFD || is_control(c)) {
        if (first) first_character = FirstCharacter::kDropped;
        continue;
      }
      if (is_whitespace(c)) c = ' ';
    }
    if (options.handle_chinese_chars && is_chinese_char(c)) {
      if (first) first_character = FirstCharacter::kSpaced;
      out.push_back(' ');
      accents(c);
      out.push_back(' ');
    } else {
      accents(c);
      if (first && out.size() == before) first_character = FirstCharacter::kDropped;
    }
  }
  return first_character;
}

}  // namespace winnow::hf_chars
