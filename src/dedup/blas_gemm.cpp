#include "dedup/blas_gemm.h"

#include <cblas.h>
#include <dlfcn.h>

#include <mutex>

namespace winnow {

namespace {

// A sequential OpenBLAS (Debian's libopenblas0-serial, when a system's alternatives choose it)
// is built without USE_LOCKING: concurrent calls race in its buffer allocator and give wrong
// products. Under it, calls take turns; the threaded builds (pinned to one thread here, the
// workers being the parallelism) run side by side.
bool calls_must_take_turns() {
  static const bool sequential = openblas_get_parallel() == 0;
  return sequential;
}

}  // namespace

void stop_blas_threads() {
  openblas_set_num_threads(1);  // later calls run on the caller's thread, needing no server
  // Looked up, not linked: only the threaded builds have it. It joins the server threads; a
  // later call that wanted threads would start them again.
  using Shutdown = int (*)();
  if (auto shutdown = reinterpret_cast<Shutdown>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_"))) {
    shutdown();
  }
}

void gemm_abt(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
              float* c, size_t ldc) {
  static std::once_flag pinned;
  std::call_once(pinned, [] { openblas_set_num_threads(1); });
  if (m == 0 || n == 0) return;
  static std::mutex turns;
  std::unique_lock lock(turns, std::defer_lock);
  if (calls_must_take_turns()) lock.lock();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb), 0.0f,
              c, static_cast<int>(ldc));
}

}  // namespace winnow
