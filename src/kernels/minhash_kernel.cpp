// Scalar reference and highway SIMD variants of the MinHash loop (see minhash_kernel.h).
// This file is compiled once per SIMD target by foreach_target.h; HWY_ONCE marks the part
// compiled a single time (the dispatcher and the scalar reference).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/minhash_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "kernels/minhash_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace winnow {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Permutations are taken kUnroll vectors at a time and kept in registers (multipliers, offsets,
// running minima) while the shingle hashes stream past; the hashes are walked in cache-sized
// chunks so that a long document is read from L1 once per permutation block.
void MinhashUpdate(const uint32_t* HWY_RESTRICT hashes, size_t n, const uint32_t* HWY_RESTRICT a,
                   const uint32_t* HWY_RESTRICT b, uint32_t* HWY_RESTRICT mins, size_t k) {
  const hn::ScalableTag<uint32_t> d;
  const size_t lanes = hn::Lanes(d);
  constexpr size_t kUnroll = 4;
  constexpr size_t kChunk = 4096;  // 16 KB of hashes
  const size_t block = kUnroll * lanes;
  for (size_t start = 0; start < n; start += kChunk) {
    const uint32_t* h = hashes + start;
    const size_t m = std::min(kChunk, n - start);
    size_t j = 0;
    for (; j + block <= k; j += block) {
      auto a0 = hn::LoadU(d, a + j), a1 = hn::LoadU(d, a + j + lanes);
      auto a2 = hn::LoadU(d, a + j + 2 * lanes), a3 = hn::LoadU(d, a + j + 3 * lanes);
      auto b0 = hn::LoadU(d, b + j), b1 = hn::LoadU(d, b + j + lanes);
      auto b2 = hn::LoadU(d, b + j + 2 * lanes), b3 = hn::LoadU(d, b + j + 3 * lanes);
      auto m0 = hn::LoadU(d, mins + j), m1 = hn::LoadU(d, mins + j + lanes);
      auto m2 = hn::LoadU(d, mins + j + 2 * lanes), m3 = hn::LoadU(d, mins + j + 3 * lanes);
      for (size_t i = 0; i < m; ++i) {
        const auto x = hn::Set(d, h[i]);
        m0 = hn::Min(m0, hn::Add(hn::Mul(a0, x), b0));
        m1 = hn::Min(m1, hn::Add(hn::Mul(a1, x), b1));
        m2 = hn::Min(m2, hn::Add(hn::Mul(a2, x), b2));
        m3 = hn::Min(m3, hn::Add(hn::Mul(a3, x), b3));
      }
      hn::StoreU(m0, d, mins + j);
      hn::StoreU(m1, d, mins + j + lanes);
      hn::StoreU(m2, d, mins + j + 2 * lanes);
      hn::StoreU(m3, d, mins + j + 3 * lanes);
    }
    for (; j + lanes <= k; j += lanes) {
      const auto av = hn::LoadU(d, a + j), bv = hn::LoadU(d, b + j);
      auto mv = hn::LoadU(d, mins + j);
      for (size_t i = 0; i < m; ++i) mv = hn::Min(mv, hn::Add(hn::Mul(av, hn::Set(d, h[i])), bv));
      hn::StoreU(mv, d, mins + j);
    }
    if (j < k) {
      // The last partial vector: pad the parameters into a full one and store only k - j lanes.
      const size_t rest = k - j;
      HWY_ALIGN uint32_t pa[hn::MaxLanes(d)] = {};
      HWY_ALIGN uint32_t pb[hn::MaxLanes(d)] = {};
      HWY_ALIGN uint32_t pm[hn::MaxLanes(d)] = {};
      std::memcpy(pa, a + j, rest * sizeof(uint32_t));
      std::memcpy(pb, b + j, rest * sizeof(uint32_t));
      std::memcpy(pm, mins + j, rest * sizeof(uint32_t));
      const auto av = hn::Load(d, pa), bv = hn::Load(d, pb);
      auto mv = hn::Load(d, pm);
      for (size_t i = 0; i < m; ++i) mv = hn::Min(mv, hn::Add(hn::Mul(av, hn::Set(d, h[i])), bv));
      hn::Store(mv, d, pm);
      std::memcpy(mins + j, pm, rest * sizeof(uint32_t));
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace winnow
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace winnow {

HWY_EXPORT(MinhashUpdate);

void minhash_update(const uint32_t* hashes, size_t n, const uint32_t* a, const uint32_t* b,
                    uint32_t* mins, size_t k) {
  HWY_DYNAMIC_DISPATCH(MinhashUpdate)(hashes, n, a, b, mins, k);
}

}  // namespace winnow
#endif  // HWY_ONCE
