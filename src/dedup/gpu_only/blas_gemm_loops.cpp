// gemm_abt (dedup/blas_gemm.h) in the GPU-only build (cmake/gpu_only.cmake), which has no
// OpenBLAS: plain loops, each product summed in double and rounded once, so it is at least as
// accurate as sgemm. The GPU products are checked against the CPU within 1e-5, never bit for bit,
// so this reference serves them as OpenBLAS does; it is slow, and only the tests use it.
#include "dedup/blas_gemm.h"

namespace winnow {

void gemm_abt(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
              float* c, size_t ldc) {
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (size_t p = 0; p < k; ++p) sum += double(a[i * lda + p]) * b[j * ldb + p];
      c[i * ldc + j] = static_cast<float>(sum);
    }
  }
}

}  // namespace winnow
