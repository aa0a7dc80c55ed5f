#pragma once
// The MinHash signature loop, the hot path of fuzzy dedup: for every permutation j,
//   mins[j] = min(mins[j], min over i of (a[j] * hashes[i] + b[j]) mod 2^32).
// Each (a[j], b[j]) with odd a[j] is a bijection of the 32-bit values, so with hashed (uniform)
// inputs the argmin is uniform over a document's distinct shingles: the MinHash property.
// minhash_update_scalar is the reference; minhash_update runs the best SIMD variant this CPU
// supports (chosen at run time, see simd_targets.h) and gives the same result.
#include <cstddef>
#include <cstdint>

namespace winnow {

void minhash_update_scalar(const uint32_t* hashes, size_t n, const uint32_t* a, const uint32_t* b,
                           uint32_t* mins, size_t k);

void minhash_update(const uint32_t* hashes, size_t n, const uint32_t* a, const uint32_t* b,
                    uint32_t* mins, size_t k);

}  // namespace winnow
