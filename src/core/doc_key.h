#pragma once
// DocKey: a stable 64-bit key per document, (shard index, row). It is the basis of every
// tie-break and of removal lists, so it must not depend on threads, batch sizes or ranks.
#include <compare>
#include <cstdint>

namespace winnow {

class DocKey {
 public:
  static constexpr int kRowBits = 40;  // 1.1e12 rows per shard, 16.7e6 shards
  static constexpr uint64_t kRowMask = (uint64_t{1} << kRowBits) - 1;
  static constexpr uint64_t kMaxShard = (uint64_t{1} << (64 - kRowBits)) - 1;

  constexpr DocKey() = default;
  constexpr explicit DocKey(uint64_t value) : value_(value) {}
  static constexpr DocKey make(uint64_t shard, uint64_t row) {
    return DocKey((shard << kRowBits) | (row & kRowMask));
  }

  constexpr uint64_t value() const { return value_; }
  constexpr uint64_t shard() const { return value_ >> kRowBits; }
  constexpr uint64_t row() const { return value_ & kRowMask; }
  constexpr auto operator<=>(const DocKey&) const = default;

 private:
  uint64_t value_ = 0;
};

}  // namespace winnow
