// Semantic dedup's GPU path end to end on a device (dedup/semantic_device.h): the kernels'
// runner-up values against the CPU's, and the settled decisions (removals, matches and
// similarities; labels and scores) equal to the CPU path's bit for bit, on rows built to sit on
// the edges (exact copies, near ties, thresholds on exact pair values), with the device's
// budget forcing streamed panels too. Skipped without a device.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <vector>

#include "dedup/cluster_pruner.h"
#include "dedup/double_products.h"
#include "dedup/kmeans.h"
#include "dedup/planted_rows.h"
#include "dedup/semantic_device.h"
#include "gpu/blas/gpu_similarity.h"
#include "gpu/gpu_runtime.h"

namespace winnow {
namespace {

class SemanticDeviceGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpu::device_count() == 0) GTEST_SKIP() << "no GPU: " << gpu::unavailable_reason();
  }
};

// Thresholds on pairs' exact similarities (a product rounded down misses them), and 0.999.
std::vector<double> edge_thresholds(const std::vector<float>& x, size_t n, size_t d) {
  std::vector<double> t = {0.999};
  for (size_t j = 1; j < n && t.size() < 4; j += 5) {
    const double c = dot_in_double(&x[j * d], &x[(j - 1) * d], d);
    if (c > 0.5 && c < 1.0) t.push_back(c);
  }
  return t;
}

TEST_F(SemanticDeviceGpuTest, SettledPruningIsTheCpusBitForBit) {
  // {n, d, block, device bytes}: the last two stream panels through a small budget.
  const size_t shapes[][4] = {{2, 8, 4, 0},          {300, 37, 64, 0},       {2049, 384, 512, 0},
                              {4500, 128, 4096, 0}, {3001, 64, 256, 600000}, {5000, 33, 300, 600000}};
  for (const auto& shape : shapes) {
    const size_t n = shape[0], d = shape[1];
    const std::vector<float> x = edge_rows(n, d, static_cast<unsigned>(n + d));
    PruneOptions options;
    options.block = 1024;
    options.thresholds = edge_thresholds(x, n, d);
    options.threads = 4;
    const PruneResult cpu = prune_cluster(x.data(), n, d, options);
    // The kernel's runner-up against the CPU's, within the products' tolerance.
    std::vector<float> best, second;
    std::vector<uint32_t> matched;
    gpu::ProductOptions budget;
    budget.device_bytes = shape[3];
    ASSERT_TRUE(gpu::max_earlier_similarity(0, x.data(), n, d, shape[2], best, matched, budget,
                                            nullptr, &second)
                    .is_ok());
    for (size_t j = 0; j < n; j += std::max<size_t>(1, n / 97)) {
      double top = 0, runner_up = 0;
      for (size_t i = 0; i < j; ++i) {
        const double c = dot_in_double(&x[j * d], &x[i * d], d);
        if (c > top) runner_up = top, top = c;
        else runner_up = std::max(runner_up, c);
      }
      ASSERT_NEAR(second[j], runner_up, 1e-5) << "row " << j << " of " << n;
    }
    SemanticDevice device;
    device.device = 0;
    device.block = shape[2];
    auto settled = prune_cluster_on_device(device, x.data(), n, d, options);
    ASSERT_TRUE(settled.is_ok()) << settled.status().message();
    size_t removed = 0;
    for (size_t j = 0; j < n; ++j) {
      ASSERT_EQ(settled->removed[j], cpu.removed[j]) << "row " << j << " of " << n;
      if (cpu.removed[j] == 0) continue;
      ++removed;
      ASSERT_EQ(settled->matched[j], cpu.matched[j]) << "row " << j << " of " << n;
      ASSERT_EQ(settled->max_similarity[j], cpu.max_similarity[j]) << "row " << j << " of " << n;
    }
    if (n > 2) {
      EXPECT_GT(removed, 0u) << n;
    }
  }
}

TEST_F(SemanticDeviceGpuTest, SettledAssignmentIsTheCpusBitForBit) {
  const size_t n = 20000, d = 96, k = 64;
  std::vector<float> x = planted_unit_rows(n, d, 3, 0.01f, 5);
  // Centroids in near-tied pairs, and every fourth row a copy of a centroid.
  std::vector<float> centroids = planted_unit_rows(k, d, 5, 0.0f, 1);
  for (size_t m = 0; 2 * m + 1 < k; ++m) {
    std::copy(&centroids[2 * m * d], &centroids[(2 * m + 1) * d], &centroids[(2 * m + 1) * d]);
    centroids[(2 * m + 1) * d + m % d] = std::nextafter(centroids[(2 * m + 1) * d + m % d], 2.0f);
  }
  for (size_t r = 0; r < n; r += 4) {
    std::copy(&centroids[(r % k) * d], &centroids[(r % k + 1) * d], &x[r * d]);
  }
  for (bool inner_product : {true, false}) {
    std::vector<int64_t> cpu_labels(n), labels(n);
    std::vector<float> cpu_scores(n), scores(n);
    assign_nearest(x.data(), n, d, centroids.data(), k, inner_product, 4, cpu_labels.data(),
                   cpu_scores.data());
    SemanticDevice device;
    device.device = 0;
    Status status = assign_nearest_on_device(device, x.data(), n, d, centroids.data(), k,
                                             inner_product, 4, labels.data(), scores.data());
    ASSERT_TRUE(status.is_ok()) << status.message();
    for (size_t r = 0; r < n; ++r) {
      ASSERT_EQ(labels[r], cpu_labels[r]) << inner_product << " row " << r;
      ASSERT_EQ(scores[r], cpu_scores[r]) << inner_product << " row " << r;
    }
  }
}

}  // namespace
}  // namespace winnow
