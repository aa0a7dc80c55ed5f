#include "dedup/blas_gemm.h"

#include <cblas.h>

#include <mutex>

namespace winnow {

void gemm_abt(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
              float* c, size_t ldc) {
  static std::once_flag pinned;
  std::call_once(pinned, [] { openblas_set_num_threads(1); });
  if (m == 0 || n == 0) return;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb), 0.0f,
              c, static_cast<int>(ldc));
}

}  // namespace winnow
