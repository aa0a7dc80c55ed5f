#pragma once
// Character classes as Hugging Face's tokenizers (Rust) defines them, and the BertNormalizer
// built on them: shared by the WordPiece tokenizer and the tokenizer.json pipeline steps, which
// must agree with HF character for character.
#include <string>
#include <string_view>

namespace winnow::hf_chars {

// Whether `c` was assigned in Unicode `major`.0 or before (ICU's Age property). HF's character
// tables are old: unicode_categories (punctuation, BertNormalizer's controls and nonspacing
// marks) has Unicode 8.0; unicode-normalization-alignments (NFC/NFD/NFKC/NFKD, StripAccents'
// combining marks) and the UnicodeScripts table Unicode 9.0. A character assigned since is in
// no class there (and has no decomposition, no script); utf8proc and ICU know Unicode 15.
constexpr int kCategoriesUnicode = 8;
constexpr int kNormalizationUnicode = 9;
bool assigned_by(char32_t c, int major);

// Rust's char::is_whitespace (Unicode White_Space); also regex's \s.
bool is_whitespace(char32_t c);
// Rust's char::is_numeric: general category Nd, Nl or No (Arabic-Indic and fullwidth digits,
// Roman numerals, superscripts, fractions, circled numbers...).
bool is_numeric(char32_t c);
// HF's punctuation (Punctuation, BertPreTokenizer): ASCII punctuation, which includes symbols
// such as $ + < = > ^ ` | ~, or a general category P* in Unicode 8.0 (HF's table).
bool is_punctuation(char32_t c);
// The regex crate's Unicode \w, which single_word added tokens test either side of a match:
// Alphabetic, a mark, Nd, Pc (the underscore...) or a joiner (U+200C, U+200D).
bool is_word(char32_t c);
// General category M* in Unicode 9.0 (HF's table; StripAccents drops these).
bool is_mark(char32_t c);

// The code point at `i` of valid UTF-8 and its length in bytes.
char32_t decode_at(std::string_view text, size_t i, size_t& length);
// The code point ending at `end` (> 0) of valid UTF-8 and its length in bytes.
char32_t decode_before(std::string_view text, size_t end, size_t& length);
void append_utf8(std::string& out, char32_t c);
std::string to_utf8(std::u32string_view text);
// Valid UTF-8 (an invalid byte reads as U+FFFD) as code points.
std::u32string to_utf32(std::string_view text);
// Appends Rust's char::to_lowercase of `c`: the simple mapping, but İ becomes i + U+0307.
void append_lowercase(std::u32string& out, char32_t c);

struct BertNormalizerOptions {
  bool clean_text = true;            // drop control characters, every whitespace becomes ' '
  bool handle_chinese_chars = true;  // spaces around CJK ideographs
  bool strip_accents = true;         // NFD, then nonspacing marks dropped
  bool lowercase = true;
};
// What BertNormalizer did to a text's first character: kept it, dropped it (HF's offsets then
// no longer start at 0), or put a space before it (a CJK ideograph).
enum class FirstCharacter { kKept, kDropped, kSpaced };
// HF's BertNormalizer on UTF-8 `text` (an invalid byte reads as U+FFFD, which clean_text drops).
FirstCharacter bert_normalize(std::string_view text, const BertNormalizerOptions& options,
                              std::u32string& out);

}  // namespace winnow::hf_chars
