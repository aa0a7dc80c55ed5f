#pragma once
// Real texts from this machine (/usr/share/common-licenses/*, /usr/share/doc/*/copyright) and
// near-duplicates made from them by random edits, for the dedup accuracy tests.
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {

// Texts of at least `min_chars` bytes, in a fixed (sorted path) order.
inline std::vector<std::string> machine_texts(size_t min_chars) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/share/common-licenses", ec)) {
    if (e.is_regular_file()) paths.push_back(e.path().string());
  }
  for (const auto& e : fs::directory_iterator("/usr/share/doc", ec)) {
    fs::path p = e.path() / "copyright";
    if (fs::is_regular_file(p, ec)) paths.push_back(p.string());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> texts;
  for (const auto& p : paths) {
    std::string text = read_file(p);
    if (text.size() >= min_chars) texts.push_back(std::move(text));
  }
  return texts;
}

// `edits` random edits: each replaces a span of 1-8 bytes with as many random letters or
// spaces (ASCII, so UTF-8 stays valid only if the span holds whole characters: spans are
// moved to ASCII positions).
inline std::string edit_text(std::string text, int edits, std::mt19937_64& rng) {
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyz      ";
  for (int e = 0; e < edits && !text.empty(); ++e) {
    size_t at = rng() % text.size();
    size_t len = 1 + rng() % 8;
    for (size_t i = at; i < text.size() && i < at + len; ++i) {
      if (static_cast<unsigned char>(text[i]) >= 0x80) break;
      text[i] = kChars[rng() % (sizeof(kChars) - 1)];
    }
  }
  return text;
}

// A window of about `chars` bytes cut at ASCII positions.
inline std::string window(const std::string& text, size_t chars, std::mt19937_64& rng) {
  if (text.size() <= chars) return text;
  size_t at = rng() % (text.size() - chars);
  while (at > 0 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  size_t end = at + chars;
  while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
  return text.substr(at, end - at);
}

}  // namespace winnow::testing
