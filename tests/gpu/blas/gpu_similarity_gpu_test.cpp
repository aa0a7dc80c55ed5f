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

// Shapes {n, d, block, device bytes}: 0 bytes is the default budget (the rows fit at once);
// the small budgets force resident panels of three blocks (768 and 900 rows: 4 and 6 passes),
// the earlier rows streamed through the two buffers, which must agree all the same.
TEST_F(GpuSimilarityTest, MaxEarlierSimilarityMatchesTheCpuPruner) {
  const size_t shapes[][4] = {
      {1, 8, 4, 0},       {2, 3, 1, 0},         {17, 5, 4, 0},           {1000, 384, 256, 0},
      {1537, 97, 500, 0}, {3001, 768, 1024, 0}, {3001, 64, 256, 600000}, {5000, 33, 300, 600000}};
  for (const auto& shape : shapes) {
    const size_t n = shape[0], d = shape[1], block = shape[2];
    std::vector<float> x = unit_rows(n, d, n * 31 + d);
    PruneOptions options;
    options.block = block;
    options.thresholds = {0.9};
    PruneResult cpu = prune_cluster(x.data(), n, d, options);
    std::vector<float> best;
    std::vector<uint32_t> matched;
    gpu::ProductOptions device;
    device.device_bytes = shape[3];
    gpu::ProductStats stats;
    Status status =
        gpu::max_earlier_similarity(0, x.data(), n, d, block, best, matched, device, &stats);
    ASSERT_TRUE(status.is_ok()) << status.message();
    if (shape[3] != 0) {
      EXPECT_GT(stats.passes, 2u) << "the budget should force several resident panels";
    }
    EXPECT_FALSE(stats.host_memory.empty());
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

// Shapes {n, d, k, device bytes}; the last two have budgets that hold about a thousand rows
// per tile (1,328 and 819), so 16 and 10 tiles alternate between the two buffers (the
// double-buffered path, with results collected from pinned memory a slot behind).
TEST_F(GpuSimilarityTest, AssignmentMatchesTheCpuAwayFromTies) {
  const size_t shapes[][4] = {{1, 4, 1, 0},
                              {333, 17, 5, 0},
                              {5000, 384, 100, 0},
                              {20011, 64, 1001, 0},
                              {20011, 64, 1001, 6 << 20},
                              {7777, 128, 50, 1 << 20}};
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
      gpu::ProductOptions device;
      device.device_bytes = shape[3];
      gpu::ProductStats stats;
      Status status = gpu::assign_nearest(0, x.data(), n, d, centroids.data(), k, inner_product,
                                          labels, scores, device, &stats);
      ASSERT_TRUE(status.is_ok()) << status.message();
      if (shape[3] != 0) {
        EXPECT_GT(stats.tiles, 4u) << "the budget should force several tiles";
      }
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

// Rows the CPU cannot score (NaN products) get what the CPU gives them, not an index past the
// centroids: a row whose first score is NaN keeps centroid 0; NaN elsewhere never wins.
TEST_F(GpuSimilarityTest, NanRowsGetTheCpusLabels) {
  const size_t d = 8, k = 5, n = 4;
  std::vector<float> centroids = unit_rows(k, d, 3);
  std::vector<float> x = unit_rows(n, d, 4);
  const float nan = std::nanf("");
  for (size_t c = 0; c < d; ++c) x[0 * d + c] = nan;  // every score NaN
  x[1 * d + 2] = nan;                                 // likewise, through one NaN value
  centroids[3 * d + 0] = nan;                         // centroid 3's scores NaN for every row
  for (bool inner_product : {true, false}) {
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
      ASSERT_GE(labels[i], 0);
      ASSERT_LT(labels[i], static_cast<int64_t>(k));
      EXPECT_EQ(labels[i], cpu_labels[i]) << "row " << i;
      EXPECT_EQ(std::isnan(scores[i]), std::isnan(cpu_scores[i])) << "row " << i;
    }
  }
}

// The per-thread context is reused across calls, on buffers grown by an earlier, larger call:
// a small call after a large one gives what it gives alone.
TEST_F(GpuSimilarityTest, ReusedContextGivesTheSameResults) {
  const size_t d = 48, k = 9;
  std::vector<float> centroids = unit_rows(k, d, 11);
  std::vector<float> small = unit_rows(100, d, 12), large = unit_rows(9000, d, 13);
  std::vector<int64_t> first, again, other;
  std::vector<float> s1, s2, s3;
  ASSERT_TRUE(
      gpu::assign_nearest(0, small.data(), 100, d, centroids.data(), k, true, first, s1).is_ok());
  ASSERT_TRUE(
      gpu::assign_nearest(0, large.data(), 9000, d, centroids.data(), k, true, other, s3).is_ok());
  ASSERT_TRUE(
      gpu::assign_nearest(0, small.data(), 100, d, centroids.data(), k, true, again, s2).is_ok());
  EXPECT_EQ(first, again);
  EXPECT_EQ(s1, s2);
}

TEST_F(GpuSimilarityTest, SgemmRateIsMeasured) {
  auto rate = gpu::sgemm_tflops(0, 512, 512, 512, 2);
  ASSERT_TRUE(rate.is_ok()) << rate.status().message();
  EXPECT_GT(*rate, 0.0);
}

}  // namespace
}  // namespace winnow
