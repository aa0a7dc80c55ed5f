// The cuBLAS products of semantic dedup against the CPU path (dedup/cluster_pruner.h,
// dedup/kmeans.h) on random unit vectors of awkward sizes: values within 1e-5, and the same
// choices wherever the CPU's best is not tied within that tolerance. Skipped without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "dedup/cluster_pruner.h"
#include "dedup/kmeans.h"
#include "gpu/blas/gpu_similarity.h"
#include "gpu/gpu_runtime.h"

namespace winnow {
namespace {

// Unit rows; every seventh a near-copy of an earlier one, so maxima near 1 occur.
std::vector<float> unit_rows(size_t n, size_t d, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<float> normal;
  std::vector<float> x(n * d);
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < d; ++c) {
      x[i * d + c] =
          i % 7 == 6 && i > 0 ? x[(i / 2) * d + c] + 0.05f * normal(random) : normal(random);
    }
    double norm = 0;
    for (size_t c = 0; c < d; ++c) norm += double(x[i * d + c]) * x[i * d + c];
    for (size_t c = 0; c < d; ++c)
      x[i * d + c] = static_cast<float>(x[i * d + c] / std::sqrt(norm));
  }
  return x;
}

class GpuSimilarityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpu::device_count() == 0) GTEST_SKIP() << "no GPU: " << gpu::unavailable_reason();
  }
};

TEST_F(GpuSimilarityTest, MaxEarlierSimilarityMatchesTheCpuPruner) {
  const size_t shapes[][3] = {{1, 8, 4},        {2, 3, 1},       {17, 5, 4},
                              {1000, 384, 256}, {1537, 97, 500}, {3001, 768, 1024}};
  for (const auto& shape : shapes) {
    const size_t n = shape[0], d = shape[1], block = shape[2];
    std::vector<float> x = unit_rows(n, d, n * 31 + d);
    PruneOptions options;
    options.block = block;
    options.thresholds = {0.9};
    PruneResult cpu = prune_cluster(x.data(), n, d, options);
    std::vector<float> best;
    std::vector<uint32_t> matched;
    ASSERT_TRUE(gpu::max_earlier_similarity(0, x.data(), n, d, block, best, matched).is_ok());
    ASSERT_EQ(best.size(), n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_NEAR(best[i], cpu.max_similarity[i], 1e-5) << "row " << i << " of " << n;
      ASSERT_LT(matched[i], std::max<size_t>(i, 1) + (matched[i] == i ? 1 : 0));
      if (matched[i] != i) {
        // The row it names holds that maximum.
        double dot = 0;
        for (size_t c = 0; c < d; ++c) dot += double(x[i * d + c]) * x[matched[i] * d + c];
        ASSERT_NEAR(dot, best[i], 1e-5);
      }
    }
  }
}

TEST_F(GpuSimilarityTest, AssignmentMatchesTheCpuAwayFromTies) {
  const size_t shapes[][3] = {{1, 4, 1}, {333, 17, 5}, {5000, 384, 100}, {20011, 64, 1001}};
  for (bool inner_product : {true, false}) {
    for (const auto& shape : shapes) {
      const size_t n = shape[0], d = shape[1], k = shape[2];
      std::vector<float> x = unit_rows(n, d, n + d + k);
      std::vector<float> centroids = unit_rows(k, d, 7 * k + 1);
      std::vector<int64_t> cpu_labels(n);
      std::vector<float> cpu_scores(n);
      assign_nearest(x.data(), n, d, centroids.data(), k, inner_product, 1, cpu_labels.data(),
                     cpu_scores.data());
      std::vector<int64_t> labels;
      std::vector<float> scores;
      ASSERT_TRUE(
          gpu::assign_nearest(0, x.data(), n, d, centroids.data(), k, inner_product, labels, scores)
              .is_ok());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_NEAR(scores[i], cpu_scores[i], 1e-5) << "row " << i;
        if (labels[i] == cpu_labels[i]) continue;
        // A different label only for a tie within the tolerance: its score is the CPU's best.
        double dot = 0, dist = 0;
        for (size_t c = 0; c < d; ++c) {
          const double a = x[i * d + c], b = centroids[static_cast<size_t>(labels[i]) * d + c];
          dot += a * b;
          dist += (a - b) * (a - b);
        }
        ASSERT_NEAR(inner_product ? dot : dist, cpu_scores[i], 1e-5) << "row " << i;
      }
    }
  }
}

TEST_F(GpuSimilarityTest, SgemmRateIsMeasured) {
  auto rate = gpu::sgemm_tflops(0, 512, 512, 512, 2);
  ASSERT_TRUE(rate.is_ok()) << rate.status().message();
  EXPECT_GT(*rate, 0.0);
}

}  // namespace
}  // namespace winnow
