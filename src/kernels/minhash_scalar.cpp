// The scalar reference of minhash_kernel.h, apart from the highway variants (minhash_kernel.cpp)
// so that the GPU-only build (cmake/gpu_only.cmake), which has no highway, runs it alone.
#include <algorithm>

#include "kernels/minhash_kernel.h"

namespace winnow {

void minhash_update_scalar(const uint32_t* hashes, size_t n, const uint32_t* a, const uint32_t* b,
                           uint32_t* mins, size_t k) {
  for (size_t j = 0; j < k; ++j) {
    uint32_t best = mins[j];
    for (size_t i = 0; i < n; ++i) best = std::min(best, a[j] * hashes[i] + b[j]);
    mins[j] = best;
  }
}

}  // namespace winnow
