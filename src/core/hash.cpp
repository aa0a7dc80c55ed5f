#include "core/hash.h"

#include <xxhash.h>

namespace winnow {

uint64_t hash64(std::string_view bytes, uint64_t seed) {
  return XXH3_64bits_withSeed(bytes.data(), bytes.size(), seed);
}

uint64_t hash_u64(uint64_t value, uint64_t seed) {
  return XXH3_64bits_withSeed(&value, sizeof(value), seed);
}

}  // namespace winnow
