// minhash_update in the GPU-only build (cmake/gpu_only.cmake), which has no highway: the scalar
// reference, whose results the SIMD variants equal (tests/kernels/minhash_kernel_test.cpp), so
// the CPU signatures the GPU is checked against are the same.
#include "kernels/minhash_kernel.h"

namespace winnow {

void minhash_update(const uint32_t* hashes, size_t n, const uint32_t* a, const uint32_t* b,
                    uint32_t* mins, size_t k) {
  minhash_update_scalar(hashes, n, a, b, mins, k);
}

}  // namespace winnow
