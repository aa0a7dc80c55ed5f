#pragma once
// XXH3-64 (xxHash 0.8) of inputs of at most 240 bytes, written once for host and device: the
// GPU's shingle hashes and band keys must equal the CPU's bit for bit, and the CPU's come from
// libxxhash. Only the short paths exist (0-16, 17-128, 129-240 bytes; the "long" stripe loop
// starts at 241): shingles and band rows are short, and longer inputs stay on the CPU. The host
// build of these functions is tested against libxxhash (tests/gpu/xxh3_short_test.cpp), which
// checks the device build too: it is the same source, and integer arithmetic is exact on both.
//
// No CUDA header: under nvcc the functions are __host__ __device__; elsewhere plain inline.
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define WINNOW_HD __host__ __device__ __forceinline__
#else
#define WINNOW_HD inline
#endif

namespace winnow::gpu::xxh3 {

inline constexpr size_t kMaxShortLength = 240;
inline constexpr size_t kSecretSize = 192;

// XXH3's default secret (XXH3_kSecret), as a list the host array and the device's constant
// memory are both initialised from.
#define WINNOW_XXH3_SECRET_BYTES                                                                  \
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c, \
      0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67,   \
      0x1f, 0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff,   \
      0x72, 0x21, 0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81,   \
      0x3a, 0x26, 0x4c, 0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b,   \
      0x1b, 0x53, 0x2e, 0xa3, 0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef,   \
      0x46, 0xa9, 0xde, 0xac, 0xd8, 0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc,   \
      0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d, 0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8,   \
      0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64, 0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3,   \
      0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb, 0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda,   \
      0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e, 0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47,   \
      0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce, 0x45, 0xcb, 0x3a, 0x8f, 0x95,   \
      0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e

inline constexpr uint8_t kHostSecret[kSecretSize] = {WINNOW_XXH3_SECRET_BYTES};

inline constexpr uint64_t kPrime32_1 = 0x9E3779B1U;
inline constexpr uint64_t kPrime64_1 = 0x9E3779B185EBCA87ULL;
inline constexpr uint64_t kPrime64_2 = 0xC2B2AE3D27D4EB4FULL;
inline constexpr uint64_t kPrime64_3 = 0x165667B19E3779F9ULL;

// Byte by byte: device inputs are not 8-byte aligned (a window starts at any byte).
WINNOW_HD uint64_t read64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
WINNOW_HD uint32_t read32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
WINNOW_HD uint32_t swap32(uint32_t x) {
  return (x << 24) | ((x << 8) & 0x00ff0000u) | ((x >> 8) & 0x0000ff00u) | (x >> 24);
}
WINNOW_HD uint64_t swap64(uint64_t x) {
  return static_cast<uint64_t>(swap32(static_cast<uint32_t>(x))) << 32 |
         swap32(static_cast<uint32_t>(x >> 32));
}
WINNOW_HD uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

WINNOW_HD uint64_t mul128_fold64(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
  return (a * b) ^ __umul64hi(a, b);
#else
  unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(p) ^ static_cast<uint64_t>(p >> 64);
#endif
}

WINNOW_HD uint64_t xxh64_avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kPrime64_2;
  h ^= h >> 29;
  h *= kPrime64_3;
  h ^= h >> 32;
  return h;
}
WINNOW_HD uint64_t avalanche(uint64_t h) {
  h ^= h >> 37;
  h *= 0x165667919E3779F9ULL;
  h ^= h >> 32;
  return h;
}
WINNOW_HD uint64_t rrmxmx(uint64_t h, uint64_t len) {
  h ^= rotl64(h, 49) ^ rotl64(h, 24);
  h *= 0x9FB21C651E98DF25ULL;
  h ^= (h >> 35) + len;
  h *= 0x9FB21C651E98DF25ULL;
  return h ^ (h >> 28);
}

WINNOW_HD uint64_t len_0to16(const uint8_t* in, size_t len, const uint8_t* secret, uint64_t seed) {
  if (len > 8) {
    const uint64_t flip1 = (read64(secret + 24) ^ read64(secret + 32)) + seed;
    const uint64_t flip2 = (read64(secret + 40) ^ read64(secret + 48)) - seed;
    const uint64_t lo = read64(in) ^ flip1;
    const uint64_t hi = read64(in + len - 8) ^ flip2;
    return avalanche(len + swap64(lo) + hi + mul128_fold64(lo, hi));
  }
  if (len >= 4) {
    seed ^= static_cast<uint64_t>(swap32(static_cast<uint32_t>(seed))) << 32;
    const uint32_t in1 = read32(in);
    const uint32_t in2 = read32(in + len - 4);
    const uint64_t flip = (read64(secret + 8) ^ read64(secret + 16)) - seed;
    const uint64_t in64 = in2 + (static_cast<uint64_t>(in1) << 32);
    return rrmxmx(in64 ^ flip, len);
  }
  if (len > 0) {
    const uint32_t c1 = in[0], c2 = in[len >> 1], c3 = in[len - 1];
    const uint32_t combined = (c1 << 16) | (c2 << 24) | c3 | (static_cast<uint32_t>(len) << 8);
    const uint64_t flip = (read32(secret) ^ read32(secret + 4)) + seed;
    return xxh64_avalanche(combined ^ flip);
  }
  return xxh64_avalanche(seed ^ (read64(secret + 56) ^ read64(secret + 64)));
}

WINNOW_HD uint64_t mix16(const uint8_t* in, const uint8_t* secret, uint64_t seed) {
  return mul128_fold64(read64(in) ^ (read64(secret) + seed),
                       read64(in + 8) ^ (read64(secret + 8) - seed));
}

WINNOW_HD uint64_t len_17to128(const uint8_t* in, size_t len, const uint8_t* secret,
                               uint64_t seed) {
  uint64_t acc = len * kPrime64_1;
  if (len > 32) {
    if (len > 64) {
      if (len > 96) {
        acc += mix16(in + 48, secret + 96, seed);
        acc += mix16(in + len - 64, secret + 112, seed);
      }
      acc += mix16(in + 32, secret + 64, seed);
      acc += mix16(in + len - 48, secret + 80, seed);
    }
    acc += mix16(in + 16, secret + 32, seed);
    acc += mix16(in + len - 32, secret + 48, seed);
  }
  acc += mix16(in, secret, seed);
  acc += mix16(in + len - 16, secret + 16, seed);
  return avalanche(acc);
}

WINNOW_HD uint64_t len_129to240(const uint8_t* in, size_t len, const uint8_t* secret,
                                uint64_t seed) {
  constexpr int kStartOffset = 3, kLastOffset = 17, kSecretSizeMin = 136;
  uint64_t acc = len * kPrime64_1;
  const int rounds = static_cast<int>(len) / 16;
  for (int i = 0; i < 8; ++i) acc += mix16(in + 16 * i, secret + 16 * i, seed);
  acc = avalanche(acc);
  for (int i = 8; i < rounds; ++i) {
    acc += mix16(in + 16 * i, secret + 16 * (i - 8) + kStartOffset, seed);
  }
  acc += mix16(in + len - 16, secret + kSecretSizeMin - kLastOffset, seed);
  return avalanche(acc);
}

// XXH3_64bits_withSeed(in, len, seed) for len <= kMaxShortLength (XXH3_64bits is seed 0).
// `secret`: kHostSecret on the host, a copy in constant or shared memory on the device.
WINNOW_HD uint64_t hash64(const uint8_t* in, size_t len, uint64_t seed, const uint8_t* secret) {
  if (len <= 16) return len_0to16(in, len, secret, seed);
  if (len <= 128) return len_17to128(in, len, secret, seed);
  return len_129to240(in, len, secret, seed);
}

}  // namespace winnow::gpu::xxh3
