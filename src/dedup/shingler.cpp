#include "dedup/shingler.h"

// The inline build of XXH3: shingles are short (24 bytes by default), so the call into the
// shared library costs as much as the hashing.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstring>

#include "core/utf8.h"
#include "text/dedup_normalizer.h"

namespace winnow {

namespace {

bool is_ascii(std::string_view text) {
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    high |= word;
  }
  for (; i < text.size(); ++i) high |= static_cast<unsigned char>(text[i]);
  return (high & 0x8080808080808080ull) == 0;
}

}  // namespace

template <typename Emit>
void Shingler::for_each_shingle(std::string_view text, Emit&& emit) const {
  const size_t n = static_cast<size_t>(options_.n);
  if (options_.kind == ShingleKind::kChars) {
    // Byte offsets of code point starts; pure ASCII (the common case) needs none.
    if (is_ascii(text)) {
      if (text.empty()) return;
      if (text.size() <= n) return emit(text);
      for (size_t i = 0; i + n <= text.size(); ++i) emit(text.substr(i, n));
      return;
    }
    thread_local std::vector<uint32_t> starts;
    starts.clear();
    for (size_t i = 0; i < text.size(); ++i) {
      if (!is_utf8_continuation(text[i])) starts.push_back(i);
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

bool Shingler::byte_windows(std::string_view text) const {
  return options_.kind == ShingleKind::kChars && text.size() > static_cast<size_t>(options_.n) &&
         is_ascii(text);
}

void Shingler::hashes(std::string_view text, std::vector<uint32_t>& out) const {
  out.clear();
  const size_t n = static_cast<size_t>(options_.n);
  if (byte_windows(text)) {
    // The hot path: one fixed-length window per byte.
    out.resize(text.size() - n + 1);
    for (size_t i = 0; i < out.size(); ++i) out[i] = fold_hash(XXH3_64bits(text.data() + i, n));
    return;
  }
  if (options_.kind == ShingleKind::kChars) out.reserve(text.size());
  for_each_shingle(
      text, [&](std::string_view s) { out.push_back(fold_hash(XXH3_64bits(s.data(), s.size()))); });
}

std::vector<std::string> Shingler::shingles(std::string_view text) const {
  std::vector<std::string> out;
  for_each_shingle(text, [&](std::string_view s) { out.emplace_back(s); });
  return out;
}

}  // namespace winnow
