#pragma once
// DocKey: a stable 64-bit key per item. It is the basis of every tie-break and of removal
// lists, so it must not depend on threads, batch sizes or ranks.
//
// An item read from the input has the key (shard index, row): the top bit is clear, 23 bits
// of shard and 40 of row, so source keys sort in input order. An item made by a stage (a chunk
// of a document, a clip of a video: fan-out) has a key derived from its parent's key and its
// index among the parent's children: the top bit set, the other 63 bits a bijective mix of the
// two. Derived keys are as stable as their parents' (same input, same keys, whatever the
// threads or batches). Two different (parent, index) pairs give the same key with probability
// about n^2 / 2^64 for n derived items (5e-4 at 1e8 items); for one parent the keys are always
// distinct. Their order is arbitrary but fixed, which is all a tie-break needs.
#include <compare>
#include <cstdint>

namespace winnow {

class DocKey {
 public:
  static constexpr int kRowBits = 40;  // 1.1e12 rows per shard, 8.4e6 shards
  static constexpr uint64_t kRowMask = (uint64_t{1} << kRowBits) - 1;
  static constexpr uint64_t kDerivedBit = uint64_t{1} << 63;
  static constexpr uint64_t kMaxShard = (kDerivedBit >> kRowBits) - 1;

  constexpr DocKey() = default;
  constexpr explicit DocKey(uint64_t value) : value_(value) {}
  static constexpr DocKey make(uint64_t shard, uint64_t row) {
    return DocKey(((shard & kMaxShard) << kRowBits) | (row & kRowMask));
  }
  // The key of child `index` of `parent`.
  static constexpr DocKey child(DocKey parent, uint64_t index) {
    // splitmix64's finaliser is a bijection of 64 bits, so for one parent distinct indices
    // give distinct keys (the shift drops one bit: still distinct below 2^63 children).
    uint64_t x = parent.value_ + (index + 1) * 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return DocKey(kDerivedBit | (x >> 1));
  }

  constexpr uint64_t value() const { return value_; }
  constexpr bool derived() const { return (value_ & kDerivedBit) != 0; }
  // Meaningful for source keys only.
  constexpr uint64_t shard() const { return value_ >> kRowBits; }
  constexpr uint64_t row() const { return value_ & kRowMask; }
  constexpr auto operator<=>(const DocKey&) const = default;

 private:
  uint64_t value_ = 0;
};

}  // namespace winnow
