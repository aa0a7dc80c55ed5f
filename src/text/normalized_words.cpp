#include "text/normalized_words.h"

#include <utf8proc.h>

#include <array>
#include <string>

#include "core/hash.h"
#include "core/utf8.h"

namespace winnow {

namespace {

// Python's string.punctuation.
constexpr std::array<bool, 128> make_punctuation() {
  std::array<bool, 128> table{};
  for (char c : std::string_view("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")) {
    table[static_cast<unsigned char>(c)] = true;
  }
  return table;
}
constexpr std::array<bool, 128> kPunctuation = make_punctuation();

inline bool is_ascii_space(unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

// str.isspace() beyond ASCII.
bool is_unicode_space(int32_t cp) {
  return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
         cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// Appends the normalised form of the code point at text[i] to `word`; returns its byte length.
size_t append_normalized(std::string_view text, size_t i, std::string& word) {
  auto c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) {
    if (!kPunctuation[c]) word.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
    return 1;
  }
  utf8proc_int32_t cp = 0;
  utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + i),
                                        static_cast<utf8proc_ssize_t>(text.size() - i), &cp);
  if (n <= 0) {  // not UTF-8 (an unchecked WARC payload): the byte as it is
    word.push_back(static_cast<char>(c));
    return 1;
  }
  append_utf8(word, static_cast<uint32_t>(utf8proc_tolower(cp)));
  return static_cast<size_t>(n);
}

}  // namespace

size_t white_space_length(std::string_view text, size_t i) {
  auto c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return is_ascii_space(c) ? 1 : 0;
  // Every non-ASCII space starts with 0xC2, 0xE1, 0xE2 or 0xE3.
  if (c != 0xC2 && c != 0xE1 && c != 0xE2 && c != 0xE3) return 0;
  utf8proc_int32_t cp = 0;
  utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + i),
                                        static_cast<utf8proc_ssize_t>(text.size() - i), &cp);
  return n > 0 && is_unicode_space(cp) ? static_cast<size_t>(n) : 0;
}

uint64_t normalized_token_hash(std::string_view token, bool& empty) {
  thread_local std::string word;
  word.clear();
  for (size_t i = 0; i < token.size();) i += append_normalized(token, i, word);
  empty = word.empty();
  return empty ? 0 : hash64(word);
}

void normalized_words(std::string_view text, std::vector<NormalizedWord>& out) {
  out.clear();
  thread_local std::string word;
  const size_t n = text.size();
  const char* data = text.data();
  size_t i = 0;
  while (i < n) {
    size_t space = white_space_length(text, i);
    if (space > 0) {
      i += space;
      continue;
    }
    const size_t begin = i;
    // The common token: ASCII only. Hashed in place when it is already normalised (lower case,
    // no punctuation), else normalised into `word` in one go.
    bool clean = true;
    while (i < n) {
      auto c = static_cast<unsigned char>(data[i]);
      if (c >= 0x80 || is_ascii_space(c)) break;
      clean &= !kPunctuation[c] && !(c >= 'A' && c <= 'Z');
      ++i;
    }
    if (i == n || is_ascii_space(static_cast<unsigned char>(data[i]))) {
      if (clean) {
        out.push_back({hash64(text.substr(begin, i - begin)), begin, i});
        continue;
      }
      word.resize(i - begin);
      size_t w = 0;
      for (size_t j = begin; j < i; ++j) {
        auto c = static_cast<unsigned char>(data[j]);
        if (kPunctuation[c]) continue;
        word[w++] = c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : static_cast<char>(c);
      }
      if (w > 0) out.push_back({hash64(std::string_view(word.data(), w)), begin, i});
      continue;
    }
    // A token with non-ASCII bytes: code point by code point from its start.
    i = begin;
    word.clear();
    while (i < n) {
      auto c = static_cast<unsigned char>(data[i]);
      if (c < 0x80) {
        if (is_ascii_space(c)) break;
        if (!kPunctuation[c]) word.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
        ++i;
        continue;
      }
      if (white_space_length(text, i) > 0) break;
      i += append_normalized(text, i, word);
    }
    if (!word.empty()) out.push_back({hash64(word), begin, i});
  }
}

}  // namespace winnow
