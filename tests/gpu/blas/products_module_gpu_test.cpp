// The GPU products as a module (gpu/blas/products_loader.cpp): nothing maps cuBLAS until the
// first product, which then loads libwinnow_gpu_products.so and gives the CPU's values. The
// first part needs no device; the product is skipped without one.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "dedup/cluster_pruner.h"
#include "dedup/planted_rows.h"
#include "gpu/blas/gpu_similarity.h"
#include "gpu/gpu_runtime.h"

namespace winnow {
namespace {

bool mapped(const std::string& library) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find(library) != std::string::npos) return true;
  }
  return false;
}

TEST(GpuProductsModule, LoadedOnTheFirstProductOnly) {
  EXPECT_FALSE(mapped("libcublas")) << "cuBLAS is mapped before any product";
  EXPECT_FALSE(mapped("libwinnow_gpu_products"));
  if (gpu::device_count() == 0) GTEST_SKIP() << "no GPU: " << gpu::unavailable_reason();
  const size_t n = 700, d = 48;
  const std::vector<float> x = planted_unit_rows(n, d, 3, 0.01f, 4);
  std::vector<float> best, second;
  std::vector<uint32_t> matched;
  Status status = gpu::max_earlier_similarity(0, x.data(), n, d, 128, best, matched, {}, nullptr,
                                              &second);
  ASSERT_TRUE(status.is_ok()) << status.message();
  EXPECT_TRUE(mapped("libwinnow_gpu_products")) << "the products ran without the module";
  EXPECT_TRUE(mapped("libcublas"));
  PruneOptions options;
  options.block = 128;
  options.thresholds = {0.9};
  const PruneResult cpu = prune_cluster(x.data(), n, d, options);
  for (size_t j = 0; j < n; ++j) ASSERT_NEAR(best[j], cpu.max_similarity[j], 1e-5) << j;
}

}  // namespace
}  // namespace winnow
