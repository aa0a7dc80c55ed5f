#pragma once
// Float matrix products for semantic dedup, on OpenBLAS, always on the calling thread.
// OpenBLAS's own threads are pinned to one: the callers split the work into blocks whose shapes
// depend only on the data, and run those blocks on their own threads. So every product, and
// everything decided from it, is the same whatever the thread count (OpenBLAS, when it
// threads, may cut a product differently for another thread count).
#include <cstddef>

namespace winnow {

// c (m x n, row-major, row stride ldc) = a (m x k, row stride lda) times the transpose of
// b (n x k, row stride ldb): every row of a against every row of b.
void gemm_abt(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
              float* c, size_t ldc);

// Ends the worker threads the threaded OpenBLAS starts when it is loaded (it is loaded into
// every winnow process: OpenCV's LAPACK is OpenBLAS too). They would spin on sched_yield for
// about 0.1 s of CPU before sleeping, in every run, whatever the pipeline; winnow calls OpenBLAS
// on one thread only (above), which needs none of them. Does nothing under a sequential
// OpenBLAS or another BLAS. Called first thing by the winnow program.
void stop_blas_threads();

}  // namespace winnow
