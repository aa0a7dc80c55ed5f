// dedup/blas_gemm.h: the products against plain double loops, and stop_blas_threads() ending
// the threads OpenBLAS starts at load.
#include "dedup/blas_gemm.h"

#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <vector>

namespace winnow {
namespace {

size_t threads_of_this_process() {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator("/proc/self/task")) {
    ++count;
  }
  return count;
}

// Every row of a (m x k) against every row of b (n x k), awkward sizes, within float rounding
// of the double-precision products.
void expect_products_right(size_t m, size_t n, size_t k) {
  std::mt19937 random(static_cast<unsigned>(m * 131 + n * 7 + k));
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> a(m * k), b(n * k), c(m * n, NAN);
  for (float& v : a) v = uniform(random);
  for (float& v : b) v = uniform(random);
  gemm_abt(m, n, k, a.data(), k, b.data(), k, c.data(), n);
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (size_t t = 0; t < k; ++t) sum += double{a[i * k + t]} * b[j * k + t];
      ASSERT_NEAR(c[i * n + j], sum, 1e-5 * std::sqrt(double(k))) << i << "," << j;
    }
  }
}

TEST(BlasGemm, EveryRowAgainstEveryRowOfTheOther) {
  expect_products_right(1, 1, 1);
  expect_products_right(7, 13, 5);
  expect_products_right(33, 65, 97);
  expect_products_right(130, 3, 384);
}

// ctest runs each test in a process of its own, so OpenBLAS's threads are the ones it started
// at load here.
TEST(StopBlasThreads, EndsOpenBlasThreadsAndProductsStillRun) {
  const int pool = openblas_get_num_threads();
  if (openblas_get_parallel() == 0 || pool <= 1) {
    GTEST_SKIP() << "this OpenBLAS started no threads (sequential build or one core)";
  }
  const size_t before = threads_of_this_process();
  stop_blas_threads();
  EXPECT_EQ(threads_of_this_process(), before - static_cast<size_t>(pool - 1));
  expect_products_right(33, 65, 97);
  stop_blas_threads();  // again: nothing left to stop
  EXPECT_EQ(threads_of_this_process(), before - static_cast<size_t>(pool - 1));
}

}  // namespace
}  // namespace winnow
