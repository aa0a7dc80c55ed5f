#pragma once
// Hashing utilities shared by every layer (xxHash's XXH3).
#include <cstdint>
#include <string_view>

namespace winnow {

uint64_t hash64(std::string_view bytes, uint64_t seed = 0);
// A well-mixed 64-bit hash of a 64-bit value under a seed (for per-document seeded draws).
uint64_t hash_u64(uint64_t value, uint64_t seed);
// A uniform double in [0, 1) from a 64-bit hash.
inline double unit_interval(uint64_t hash) { return static_cast<double>(hash >> 11) * 0x1.0p-53; }

}  // namespace winnow
