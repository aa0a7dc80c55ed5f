#pragma once
// DocKey: a stable 64-bit key per item. It is the basis of every tie-break and of removal
// lists, so it must not depend on threads, batch sizes or ranks.
//
// An item read from the input has the key (shard index, row): the top bit is clear, 23 bits
// of shard and 40 of row, so source keys sort in input order. An item made by a stage (a chunk
// of a document, a clip of a video: fan-out) has a key derived from its parent's key and its
// index among the parent's children: the top bit set, the other 63 bits a bijective 63-bit mix
// of the two. Derived keys are as stable as their parents' (same input, same keys, whatever the
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
  static constexpr uint64_t kLow63 = kDerivedBit - 1;

  constexpr DocKey() = default;
  constexpr explicit DocKey(uint64_t value) : value_(value) {}
  static constexpr DocKey make(uint64_t shard, uint64_t row) {
    return DocKey(((shard & kMaxShard) << kRowBits) | (row & kRowMask));
  }
  // The key of child `index` of `parent`.
  static constexpr DocKey child(DocKey parent, uint64_t index) {
    // The parent is mixed first (a 64-bit bijection) so that parents whose keys differ only in
    // the top bit, or by a multiple of the step below, do not share runs of children. Then the
    // index steps by an odd constant mod 2^63 (distinct for 2^63 indices) and a bijection of
    // 63 bits mixes the result: one parent's children never share a key. (A 64-bit mix cut to
    // 63 bits would not promise that: two values differing only in the dropped bit would meet.)
    uint64_t x = (mix64(parent.value_) + (index + 1) * 0x9e3779b97f4a7c15ULL) & kLow63;
    return DocKey(kDerivedBit | mix63(x));
  }
  // A bijection of [0, 2^63): xor-shifts right keep a 63-bit value within 63 bits and are
  // invertible; multiplication by an odd constant is invertible mod 2^63. Public for its test.
  static constexpr uint64_t mix63(uint64_t x) {
    x &= kLow63;
    x = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL) & kLow63;
    x = ((x ^ (x >> 27)) * 0x94d049bb133111ebULL) & kLow63;
    return x ^ (x >> 31);
  }

  constexpr uint64_t value() const { return value_; }
  constexpr bool derived() const { return (value_ & kDerivedBit) != 0; }
  // Meaningful for source keys only.
  constexpr uint64_t shard() const { return value_ >> kRowBits; }
  constexpr uint64_t row() const { return value_ & kRowMask; }
  constexpr auto operator<=>(const DocKey&) const = default;

 private:
  // splitmix64's finaliser, a bijection of 64 bits.
  static constexpr uint64_t mix64(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }

  uint64_t value_ = 0;
};

}  // namespace winnow
