#include "kernels/minhash_kernel.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "kernels/simd_targets.h"

namespace winnow {
namespace {

// Every SIMD variant this CPU runs must equal the scalar reference, for awkward numbers of
// shingles (0, 1, primes, across the 4096-hash chunk) and of permutations (1..300, not
// multiples of any vector width).
TEST(MinhashKernel, EverySimdTargetEqualsScalar) {
  std::mt19937_64 rng(7);
  std::vector<SimdTarget> targets = available_simd_targets();
  ASSERT_FALSE(targets.empty());
  const size_t shingle_counts[] = {0, 1, 2, 3, 7, 17, 31, 257, 4095, 4096, 4097, 9001};
  const size_t perm_counts[] = {1, 3, 5, 8, 13, 17, 31, 33, 64, 112, 127, 260, 300};
  for (const SimdTarget& target : targets) {
    force_simd_target(target.id);
    for (size_t n : shingle_counts) {
      for (size_t k : perm_counts) {
        std::vector<uint32_t> hashes(n), a(k), b(k), init(k);
        for (auto& h : hashes) h = static_cast<uint32_t>(rng());
        for (size_t j = 0; j < k; ++j) {
          a[j] = static_cast<uint32_t>(rng()) | 1;
          b[j] = static_cast<uint32_t>(rng());
          init[j] = (j % 3 == 0) ? 0xFFFFFFFFu : static_cast<uint32_t>(rng());
        }
        std::vector<uint32_t> expected = init, got = init;
        minhash_update_scalar(hashes.data(), n, a.data(), b.data(), expected.data(), k);
        minhash_update(hashes.data(), n, a.data(), b.data(), got.data(), k);
        ASSERT_EQ(got, expected) << target.name << " n=" << n << " k=" << k;
      }
    }
  }
  force_simd_target(0);
}

TEST(MinhashKernel, MinimumOfKnownValues) {
  // a = 1, b = 0: the plain minimum; a = 3, b = 5 wraps modulo 2^32.
  std::vector<uint32_t> hashes = {10, 4, 0x80000000u, 7};
  std::vector<uint32_t> a = {1, 3}, b = {0, 5}, mins = {0xFFFFFFFFu, 0xFFFFFFFFu};
  minhash_update(hashes.data(), hashes.size(), a.data(), b.data(), mins.data(), 2);
  EXPECT_EQ(mins[0], 4u);
  EXPECT_EQ(mins[1], 17u);  // 3 * 4 + 5; 3 * 0x80000000 + 5 = 0x80000005
}

}  // namespace
}  // namespace winnow
