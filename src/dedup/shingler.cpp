#include "dedup/shingler.h"

#include <xxhash.h>

#include "text/dedup_normalizer.h"

namespace winnow {

template <typename Emit>
void Shingler::for_each_shingle(std::string_view text, Emit&& emit) const {
  const size_t n = static_cast<size_t>(options_.n);
  if (options_.kind == ShingleKind::kChars) {
    // Byte offsets of code point starts; pure ASCII (the common case) needs none.
    bool ascii = true;
    for (unsigned char ch : text) {
      if (ch >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      if (text.empty()) return;
      if (text.size() <= n) return emit(text);
      for (size_t i = 0; i + n <= text.size(); ++i) emit(text.substr(i, n));
      return;
    }
    thread_local std::vector<uint32_t> starts;
    starts.clear();
    for (size_t i = 0; i < text.size(); ++i) {
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
    }
    starts.push_back(static_cast<uint32_t>(text.size()));
    const size_t code_points = starts.size() - 1;
    if (code_points == 0) return;
    if (code_points <= n) return emit(text);
    for (size_t i = 0; i + n <= code_points; ++i) {
      emit(text.substr(starts[i], starts[i + n] - starts[i]));
    }
    return;
  }
  thread_local std::string normalized;
  thread_local std::vector<uint32_t> word_starts;
  normalize_for_word_shingles(text, normalized);
  if (normalized.empty()) return;
  // Words are separated by exactly one space after normalisation.
  word_starts.clear();
  word_starts.push_back(0);
  for (size_t i = 0; i < normalized.size(); ++i) {
    if (normalized[i] == ' ') word_starts.push_back(static_cast<uint32_t>(i + 1));
  }
  const size_t words = word_starts.size();
  std::string_view all(normalized);
  if (words <= n) return emit(all);
  for (size_t i = 0; i + n <= words; ++i) {
    size_t end = i + n < words ? word_starts[i + n] - 1 : all.size();
    emit(all.substr(word_starts[i], end - word_starts[i]));
  }
}

void Shingler::hashes(std::string_view text, std::vector<uint32_t>& out) const {
  out.clear();
  if (options_.kind == ShingleKind::kChars) out.reserve(text.size());
  for_each_shingle(text, [&](std::string_view s) {
    out.push_back(fold_hash(XXH3_64bits(s.data(), s.size())));
  });
}

std::vector<std::string> Shingler::shingles(std::string_view text) const {
  std::vector<std::string> out;
  for_each_shingle(text, [&](std::string_view s) { out.emplace_back(s); });
  return out;
}

}  // namespace winnow
