#include "text/ngram_stats.h"

#include <algorithm>
#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/hash.h"
#include "core/utf8.h"

namespace winnow {

namespace {

// Open addressing over 64-bit keys, 16-byte slots (a typical document's table fits in L1). A
// slot is in use while its count is non-zero: every caller counts a slot as soon as it claims
// it. The slots a pass claimed are listed and cleared when the next pass starts, so a new
// document costs what the previous one used, not the table's size.
// Slots never move during a pass, so callers may keep slot indices.
class KeyTable {
 public:
  struct Slot {
    uint64_t key = 0;
    uint32_t first = 0;
    uint32_t count = 0;
  };

  void start(size_t entries) {
    for (uint32_t i : used_) slots_[i].count = 0;
    used_.clear();
    size_t want = 16;
    while (want * 3 < entries * 4) want <<= 1;  // load factor at most 3/4: stays in L1
    // Grow as needed; give back the memory a huge document took once documents are small again
    // (the table is per thread and lives as long as the thread).
    if (want > slots_.size() || (slots_.size() > (size_t{1} << 20) && want <= (size_t{1} << 16))) {
      slots_.assign(want, Slot{});
      slots_.shrink_to_fit();
    }
    mask_ = want - 1;
    shift_ = 64 - std::countr_zero(want);
  }

  // The slot of `key` (keys equal and same(first, position)), or a new one with count 0 that
  // the caller must count before its next find.
  template <typename Same>
  size_t find(uint64_t key, uint32_t position, Same&& same) {
    for (size_t i = (key * 0x9E3779B97F4A7C15ULL) >> shift_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.count == 0) {
        s.key = key;
        s.first = position;
        used_.push_back(static_cast<uint32_t>(i));
        return i;
      }
      if (s.key == key && same(s.first, position)) return i;
    }
  }
  Slot& operator[](size_t i) { return slots_[i]; }
  // Starts loading the slot where a find(key) begins. A long document's table outgrows L1, so
  // counting loops fetch a few keys ahead.
  void prefetch(uint64_t key) const {
    __builtin_prefetch(&slots_[(key * 0x9E3779B97F4A7C15ULL) >> shift_]);
  }

 private:
  std::vector<Slot> slots_;
  std::vector<uint32_t> used_;
  size_t mask_ = 0;
  unsigned shift_ = 60;
};

KeyTable& table() {
  thread_local KeyTable t;
  return t;
}

// N-gram keys: when n ids fit in 64 bits (n × the bit width of the largest id), the key is the
// ids themselves, packed, and equal keys are equal n-grams; otherwise the key is a polynomial
// hash and n-grams with equal keys are compared id by id. Either way the comparison is exact,
// and both kinds of key roll from one position to the next in O(1).
// The bit width of the largest id (at least 1).
int id_bits(const std::vector<uint32_t>& ids) {
  uint32_t max_id = 0;
  for (uint32_t id : ids) max_id = std::max(max_id, id);
  return std::max(1, static_cast<int>(std::bit_width(max_id)));
}

class Keyer {
 public:
  static constexpr uint64_t kBase = 0x100000001B3ULL * 2 + 1;  // odd

  Keyer(const std::vector<uint32_t>& ids, size_t n) : Keyer(ids, n, id_bits(ids)) {}
  // `bits`: id_bits(ids), when the caller keys several sizes over the same ids.
  Keyer(const std::vector<uint32_t>& ids, size_t n, int bits)
      : ids_(ids.data()), n_(n), bits_(bits) {
    packed_ = n * bits_ <= 64;
    mask_ = n * bits_ >= 64 ? ~0ULL : (1ULL << (n * bits_)) - 1;
    top_power_ = 1;
    for (size_t j = 1; j < n; ++j) top_power_ *= kBase;
  }

  uint64_t key_at(size_t i) const {
    uint64_t k = 0;
    if (packed_) {
      for (size_t j = 0; j < n_; ++j) k = (k << bits_) | ids_[i + j];
    } else {
      for (size_t j = 0; j < n_; ++j) k = k * kBase + ids_[i + j];
    }
    return k;
  }
  // The key at i + 1 from the key at i.
  uint64_t next_key(uint64_t key, size_t i) const {
    if (packed_) return ((key << bits_) | ids_[i + n_]) & mask_;
    return (key - ids_[i] * top_power_) * kBase + ids_[i + n_];
  }
  bool same(uint32_t a, uint32_t b) const {
    if (packed_) return true;
    for (size_t j = 0; j < n_; ++j) {
      if (ids_[a + j] != ids_[b + j]) return false;
    }
    return true;
  }

 private:
  const uint32_t* ids_;
  size_t n_;
  int bits_ = 1;
  bool packed_ = true;
  uint64_t mask_ = 0;
  uint64_t top_power_ = 1;
};

}  // namespace

PieceRepetition piece_repetition(std::string_view text, const std::vector<TextPiece>& pieces) {
  PieceRepetition r;
  r.pieces = pieces.size();
  KeyTable& t = table();
  t.start(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    const TextPiece& piece = pieces[i];
    std::string_view p = text.substr(piece.begin, piece.bytes);
    r.chars += piece.chars;
    size_t slot = t.find(hash64(p), static_cast<uint32_t>(i), [&](uint32_t a, uint32_t) {
      const TextPiece& other = pieces[a];
      return other.bytes == piece.bytes && text.compare(other.begin, other.bytes, p) == 0;
    });
    if (t[slot].count++ == 0) {
      ++r.distinct;
      r.distinct_chars += piece.chars;
    }
  }
  return r;
}

PieceRepetition piece_repetition(const std::vector<std::string_view>& pieces) {
  PieceRepetition r;
  r.pieces = pieces.size();
  KeyTable& t = table();
  t.start(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    std::string_view p = pieces[i];
    size_t chars = count_code_points(p);
    r.chars += chars;
    size_t slot = t.find(hash64(p), static_cast<uint32_t>(i),
                         [&](uint32_t a, uint32_t) { return pieces[a] == p; });
    if (t[slot].count++ == 0) {
      ++r.distinct;
      r.distinct_chars += chars;
    }
  }
  return r;
}

void NgramLadder::reset(const std::vector<uint32_t>& ids, size_t lo) {
  ids_ = &ids;
  lo_ = next_ = std::clamp<size_t>(lo, 1, 255);
  // One scan for the largest id: it gives the key width and says whether ids are dense.
  const uint32_t max_id = ids.empty() ? 0 : *std::max_element(ids.begin(), ids.end());
  bits_ = std::max(1, static_cast<int>(std::bit_width(max_id)));
  levels_.assign(ids.size(), 0);
  spans_.assign(ids.size(), 0);
  prefix_slots_.resize(ids.size());
  tops_.clear();
  positions_.clear();
  if (ids.size() < lo_) return;
  const size_t grams = ids.size() - lo_ + 1;
  if (lo_ == 1 || max_id > 2 * ids.size() + 64) {  // sparse ids (not DocSegments'): no counting
    positions_.resize(grams);
    for (size_t i = 0; i < grams; ++i) positions_[i] = static_cast<uint32_t>(i);
    return;
  }
  // Size 1 for free: an n-gram can occur twice only if each of its words does. Word ids are
  // dense (DocSegments'), so counting them is an array, and the first size is counted only at
  // positions starting n words that all occur twice (a third fewer positions in ordinary prose).
  thread_local std::vector<uint32_t> occurrences;
  occurrences.assign(size_t{max_id} + 1, 0);
  for (uint32_t id : ids) ++occurrences[id];
  size_t run = 0;  // words from i on that occur twice, counted from the end
  positions_.resize(grams);
  size_t kept = grams;
  for (size_t i = ids.size(); i-- > 0;) {
    run = occurrences[ids[i]] >= 2 ? run + 1 : 0;
    if (i < grams && run >= lo_) positions_[--kept] = static_cast<uint32_t>(i);
  }
  positions_.erase(positions_.begin(), positions_.begin() + static_cast<std::ptrdiff_t>(kept));
}

void NgramLadder::trim() {
  for (auto* v : {&positions_, &next_positions_, &slots_, &prefix_slots_}) {
    if (v->capacity() > (size_t{1} << 11)) std::vector<uint32_t>().swap(*v);
  }
  for (auto* v : {&levels_, &spans_}) {
    if (v->capacity() > (size_t{1} << 11)) std::vector<uint8_t>().swap(*v);
  }
  ids_ = nullptr;
}

void NgramLadder::climb() {
  const std::vector<uint32_t>& ids = *ids_;
  const size_t m = next_++;
  TopNgram top;
  if (ids.size() >= m) top = {0, 1};  // every m-gram occurs once until one is counted twice
  if (positions_.empty()) {
    tops_.push_back(top);
    return;
  }
  KeyTable& t = table();
  t.start(positions_.size());
  slots_.resize(positions_.size());
  // The keys first, so the counting loop can fetch the table slots of the keys a few positions
  // ahead. The first size is keyed by its ids (consecutive positions roll the key in O(1); after
  // a gap it is built afresh). Every later size m is keyed by the pair (the slot its (m-1)-gram
  // took in the size below, its last id): every position counted here was counted there, where
  // equal (m-1)-grams took one slot, so equal pairs are equal m-grams and the key is exact in
  // 64 bits whatever m, with no ids to compare on a hit.
  const bool first = m == lo_;
  Keyer keyer(ids, m, bits_);
  thread_local std::vector<uint64_t> keys;
  keys.resize(positions_.size());
  if (first) {
    for (size_t k = 0; k < positions_.size(); ++k) {
      const uint32_t i = positions_[k];
      keys[k] = (k > 0 && positions_[k - 1] + 1 == i) ? keyer.next_key(keys[k - 1], i - 1)
                                                      : keyer.key_at(i);
    }
  } else {
    for (size_t k = 0; k < positions_.size(); ++k) {
      const uint32_t i = positions_[k];
      keys[k] = (uint64_t{prefix_slots_[i]} << 32) | ids[i + m - 1];
    }
  }
  auto count = [&](auto&& same) {
    constexpr size_t kAhead = 8;
    for (size_t k = 0; k < std::min(kAhead, keys.size()); ++k) t.prefetch(keys[k]);
    for (size_t k = 0; k < positions_.size(); ++k) {
      const uint32_t i = positions_[k];
      if (k + kAhead < keys.size()) t.prefetch(keys[k + kAhead]);
      size_t s = t.find(keys[k], i, same);
      slots_[k] = static_cast<uint32_t>(s);
      auto& slot = t[s];
      if (slot.count++ > 0) levels_[i] = static_cast<uint8_t>(m);
      // Among equally frequent n-grams the one met first (smallest first position) wins, as
      // Counter.most_common does; every n-gram is compared when it reaches its final count.
      if (slot.count > top.count || (slot.count == top.count && slot.first < top.position)) {
        top.count = slot.count;
        top.position = slot.first;
      }
    }
  };
  if (first) {
    count([&](uint32_t a, uint32_t b) { return keyer.same(a, b); });
  } else {
    count([](uint32_t, uint32_t) { return true; });
  }
  tops_.push_back(top);
  // Only an m-gram that occurs twice can start an (m+1)-gram that occurs twice.
  next_positions_.clear();
  for (size_t k = 0; k < positions_.size(); ++k) {
    const uint32_t i = positions_[k];
    if (t[slots_[k]].count < 2) continue;
    spans_[i] = static_cast<uint8_t>(m);
    if (i + m + 1 <= ids.size()) {
      next_positions_.push_back(i);
      prefix_slots_[i] = slots_[k];
    }
  }
  // And an (m+1)-gram at i occurs twice only if the m-gram at i + 1 does too (the one at i + 1
  // of each occurrence): the rest are unique, counting them changes no count of two or more
  // (nor the top n-gram, nor a level), so they are left out. In prose this drops most positions
  // of the frequent pairs ("of the" followed by a rare word).
  size_t kept = 0;
  for (uint32_t i : next_positions_) {
    next_positions_[kept] = i;
    kept += spans_[i + 1] >= m;
  }
  next_positions_.resize(kept);
  positions_.swap(next_positions_);
}

TopNgram NgramLadder::top(size_t n) {
  while (next_ <= n) climb();
  return tops_[n - lo_];
}

void NgramLadder::climb_to(size_t hi) {
  while (next_ <= hi && !positions_.empty()) climb();
}

const std::vector<uint8_t>& NgramLadder::levels(size_t hi) {
  climb_to(hi);
  return levels_;
}

const std::vector<uint8_t>& NgramLadder::repeat_spans(size_t hi) {
  climb_to(hi);
  return spans_;
}

size_t nemo_duplicate_ngram_chars(const std::vector<uint8_t>& levels,
                                  const std::vector<TextPiece>& words, size_t n, bool spaces) {
  if (n == 0 || n > 255 || words.size() < n) return 0;  // levels stop at 255
  const size_t grams = words.size() - n + 1;
  size_t total = 0;
  bool any = false;
  size_t previous = 0;  // the last duplicate's position
  // A duplicate at i whose predecessor was at p < i has its first max(0, n - (i - p)) words
  // counted already. Only the duplicates are visited: found 16 levels at a time.
  auto count = [&](size_t i) {
    const size_t overlap = any && i - previous < n ? n - (i - previous) : 0;
    for (size_t k = overlap; k < n; ++k) total += words[i + k].chars;
    if (spaces) total += std::min(n - overlap, n - 1);
    any = true;
    previous = i;
  };
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i threshold = _mm_set1_epi8(static_cast<char>(std::min<size_t>(n, 255)));
  for (; i + 16 <= grams; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels.data() + i));
    // v >= n, unsigned: max(v, n) == v.
    auto mask =
        static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, threshold), v)));
    while (mask) {
      count(i + static_cast<size_t>(std::countr_zero(mask)));
      mask &= mask - 1;
    }
  }
#endif
  for (; i < grams; ++i) {
    if (levels[i] >= n) count(i);
  }
  return total;
}

size_t datatrove_duplicate_ngram_chars(const std::vector<uint32_t>& ids,
                                       const std::vector<TextPiece>& words, size_t n,
                                       const std::vector<uint8_t>* spans) {
  if (n == 0 || ids.size() < n) return 0;
  size_t grams = ids.size() - n + 1;
  KeyTable& t = table();
  t.start(grams);
  Keyer keyer(ids, n);
  size_t total = 0;
  size_t i = 0;
  size_t keyed = 0;  // the position `key` belongs to
  uint64_t key = keyer.key_at(0);
  while (i < grams) {
    if (spans && (*spans)[i] < n) {  // occurs once: never seen, remembering it is moot
      ++i;
      continue;
    }
    key = keyed + 1 == i ? keyer.next_key(key, keyed) : keyed == i ? key : keyer.key_at(i);
    keyed = i;
    auto& slot = t[t.find(key, static_cast<uint32_t>(i),
                          [&](uint32_t a, uint32_t b) { return keyer.same(a, b); })];
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
