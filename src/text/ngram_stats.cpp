#include "text/ngram_stats.h"

#include <cstring>

#include "core/hash.h"

namespace winnow {

namespace {

// Open addressing: key = (hash, first position) of an n-gram or piece; a new document bumps
// the generation instead of clearing.
class CountTable {
 public:
  struct Slot {
    uint64_t hash = 0;
    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t generation = 0;
  };

  void start(size_t entries) {
    size_t want = 16;
    while (want < entries * 2) want <<= 1;
    if (want > slots_.size()) {
      slots_.assign(want, Slot{});
      generation_ = 0;
    }
    mask_ = want - 1;
    if (++generation_ == 0) {
      for (auto& s : slots_) s.generation = 0;
      generation_ = 1;
    }
  }

  // Finds the slot of the key at `position` (equal(first, position) compares keys) or claims
  // a new one (count 0).
  template <typename Equal>
  Slot& find(uint64_t hash, uint32_t position, Equal&& equal) {
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.generation != generation_) {
        s = {hash, position, 0, generation_};
        return s;
      }
      if (s.hash == hash && equal(s.first, position)) return s;
    }
  }

 private:
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  uint32_t generation_ = 0;
};

CountTable& table() {
  thread_local CountTable t;
  return t;
}

uint64_t mix(uint64_t h, uint32_t v) {
  h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
  return h * 0xFF51AFD7ED558CCDULL;
}

uint64_t ngram_hash(const uint32_t* ids, size_t n) {
  uint64_t h = n;
  for (size_t k = 0; k < n; ++k) h = mix(h, ids[k]);
  return h ^ (h >> 29);
}

}  // namespace

PieceRepetition piece_repetition(std::string_view text, const std::vector<TextPiece>& pieces) {
  PieceRepetition r;
  r.pieces = pieces.size();
  CountTable& t = table();
  t.start(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    const TextPiece& piece = pieces[i];
    std::string_view p = text.substr(piece.begin, piece.bytes);
    r.chars += piece.chars;
    auto& slot = t.find(hash64(p), static_cast<uint32_t>(i), [&](uint32_t a, uint32_t) {
      const TextPiece& other = pieces[a];
      return other.bytes == piece.bytes && text.compare(other.begin, other.bytes, p) == 0;
    });
    if (slot.count++ == 0) {
      ++r.distinct;
      r.distinct_chars += piece.chars;
    }
  }
  return r;
}

PieceRepetition piece_repetition(const std::vector<std::string_view>& pieces) {
  PieceRepetition r;
  r.pieces = pieces.size();
  CountTable& t = table();
  t.start(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    std::string_view p = pieces[i];
    size_t chars = 0;
    for (char c : p) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    r.chars += chars;
    auto& slot = t.find(hash64(p), static_cast<uint32_t>(i),
                        [&](uint32_t a, uint32_t) { return pieces[a] == p; });
    if (slot.count++ == 0) {
      ++r.distinct;
      r.distinct_chars += chars;
    }
  }
  return r;
}

TopNgram top_ngram(const std::vector<uint32_t>& ids, size_t n) {
  TopNgram top;
  if (n == 0 || ids.size() < n) return top;
  size_t grams = ids.size() - n + 1;
  CountTable& t = table();
  t.start(grams);
  const uint32_t* data = ids.data();
  for (size_t i = 0; i < grams; ++i) {
    auto& slot = t.find(ngram_hash(data + i, n), static_cast<uint32_t>(i),
                        [&](uint32_t a, uint32_t b) {
                          return std::memcmp(data + a, data + b, n * sizeof(uint32_t)) == 0;
                        });
    ++slot.count;
    // Strictly greater: among equal counts the n-gram met first (smaller first position) wins,
    // as Counter.most_common does. A later n-gram can only tie by reaching the count later.
    if (slot.count > top.count ||
        (slot.count == top.count && slot.first < top.position)) {
      top.count = slot.count;
      top.position = slot.first;
    }
  }
  return top;
}

size_t nemo_duplicate_ngram_chars(const std::vector<uint32_t>& ids,
                                  const std::vector<TextPiece>& words, size_t n) {
  if (n == 0 || ids.size() < n) return 0;
  size_t grams = ids.size() - n + 1;
  CountTable& t = table();
  t.start(grams);
  const uint32_t* data = ids.data();
  size_t total = 0;
  size_t overlap = 0;  // leading words of the current n-gram already counted
  for (size_t i = 0; i < grams; ++i) {
    auto& slot = t.find(ngram_hash(data + i, n), static_cast<uint32_t>(i),
                        [&](uint32_t a, uint32_t b) {
                          return std::memcmp(data + a, data + b, n * sizeof(uint32_t)) == 0;
                        });
    if (++slot.count > 1) {
      for (size_t k = overlap; k < n; ++k) total += words[i + k].chars;
      total += std::min(n - overlap, n - 1);
      overlap = n;
    }
    if (overlap > 0) --overlap;
  }
  return total;
}

size_t datatrove_duplicate_ngram_chars(const std::vector<uint32_t>& ids,
                                       const std::vector<TextPiece>& words, size_t n) {
  if (n == 0 || ids.size() < n) return 0;
  size_t grams = ids.size() - n + 1;
  CountTable& t = table();
  t.start(grams);
  const uint32_t* data = ids.data();
  size_t total = 0;
  size_t i = 0;
  while (i < grams) {
    auto& slot = t.find(ngram_hash(data + i, n), static_cast<uint32_t>(i),
                        [&](uint32_t a, uint32_t b) {
                          return std::memcmp(data + a, data + b, n * sizeof(uint32_t)) == 0;
                        });
    if (slot.count > 0) {
      for (size_t k = 0; k < n; ++k) total += words[i + k].chars;
      i += n;
    } else {
      slot.count = 1;
      ++i;
    }
  }
  return total;
}

}  // namespace winnow
