// How the cuBLAS products cut a call to a device-memory budget (no device needed): the plans
// fit their budgets, use them fully, and give the GPU tests the several tiles and panels those
// tests count on (gpu_similarity_gpu_test.cpp asserts them on a device too).
#include "gpu/blas/product_plan.h"

#include <gtest/gtest.h>

namespace winnow::gpu {
namespace {

size_t similarity_bytes(const SimilarityPlan& p, size_t d) {
  return (p.block * p.block + 2 * p.block * d) * 4 + p.panel * (d * 4 + 8);
}

TEST(ProductPlan, SimilarityKeepsEveryRowWhenTheyFit) {
  const SimilarityPlan p = plan_max_similarity(3001, 768, 1024, size_t{1} << 34);
  EXPECT_EQ(p.block, 1024u);
  EXPECT_EQ(p.panel, 3001u);
  EXPECT_EQ(p.passes, 1u);
  // A block larger than the rows shrinks to them; blocks stop at 16,384 rows.
  EXPECT_EQ(plan_max_similarity(17, 5, 1024, size_t{1} << 30).block, 17u);
  EXPECT_EQ(plan_max_similarity(100000, 8, 100000, size_t{1} << 40).block, 16384u);
}

// The GPU test's streamed shapes, worked by hand: n = 3001, d = 64, blocks of 256, 600,000
// bytes: fixed (256^2 + 2 * 256 * 64) * 4 = 393,216; per row 64 * 4 + 8 = 264; (600,000 -
// 393,216) / 264 = 783 rows, cut to whole blocks: 768 = 3 blocks, 4 passes. n = 5000, d = 33,
// blocks of 300: fixed (90,000 + 19,800) * 4 = 439,200; per row 140; 1,148 rows -> 900, 6 passes.
TEST(ProductPlan, SimilarityStreamsInWholeBlocksWithinTheBudget) {
  const SimilarityPlan a = plan_max_similarity(3001, 64, 256, 600000);
  EXPECT_EQ(a.panel, 768u);
  EXPECT_EQ(a.passes, 4u);
  const SimilarityPlan b = plan_max_similarity(5000, 33, 300, 600000);
  EXPECT_EQ(b.panel, 900u);
  EXPECT_EQ(b.passes, 6u);
  for (size_t budget : {460800u, 600000u, 1000000u, 3000000u}) {
    const SimilarityPlan p = plan_max_similarity(3001, 64, 256, budget);
    ASSERT_GT(p.panel, 0u) << budget;
    EXPECT_LE(similarity_bytes(p, 64), budget) << budget;
    if (p.panel < 3001) {
      EXPECT_EQ(p.panel % p.block, 0u) << budget;
      // One more block would not fit: the budget is used.
      SimilarityPlan more = p;
      more.panel += p.block;
      EXPECT_GT(similarity_bytes(more, 64), budget) << budget;
    }
    EXPECT_EQ(p.passes, (3001 + p.panel - 1) / p.panel);
  }
}

TEST(ProductPlan, SimilarityRefusesABudgetBelowOneBlock) {
  // One block of 256 rows of 64 floats needs 393,216 + 256 * 264 = 460,800 bytes.
  EXPECT_EQ(plan_max_similarity(3001, 64, 256, 460799).panel, 0u);
  EXPECT_EQ(plan_max_similarity(3001, 64, 256, 460800).panel, 256u);
}

// 20,011 rows, d = 64, k = 1,001 in 6 MiB: fixed (1001 * 64 + 1001) * 4 = 260,260; per row
// (128 + 1001) * 4 + 2 * (8 + 4 + 4) = 4,548; (6,291,456 - 260,260) / 4,548 = 1,326 rows:
// 16 tiles. 7,777 rows, d = 128, k = 50 in 1 MiB: fixed 25,800; per row 1,256; 814 rows: 10 tiles.
TEST(ProductPlan, AssignmentTilesFitTheBudget) {
  EXPECT_EQ(plan_assignment_tile(20011, 64, 1001, 6 << 20), 1326u);
  EXPECT_EQ(plan_assignment_tile(7777, 128, 50, 1 << 20), 814u);
  for (size_t budget : {300000u, 1u << 20, 6u << 20, 100u << 20}) {
    const size_t rows = plan_assignment_tile(20011, 64, 1001, budget);
    ASSERT_GT(rows, 0u);
    const size_t used = assignment_fixed_bytes(64, 1001) + rows * assignment_row_bytes(64, 1001);
    EXPECT_LE(used, budget);
    if (rows < 20011 && rows < (size_t{64} << 20) / 1001) {
      EXPECT_GT(used + assignment_row_bytes(64, 1001), budget);
    }
  }
  // Unbounded budget: the product cap, floor(64 Mi floats / 1,001 centroids) = 67,041 rows
  // (1,001 x 67,041 = 67,108,041 <= 67,108,864), or all the rows when fewer.
  EXPECT_EQ(plan_assignment_tile(1000000, 64, 1001, size_t{1} << 40), 67041u);
  EXPECT_EQ(plan_assignment_tile(20011, 64, 1001, size_t{1} << 40), 20011u);
  // The centroids alone over the budget: no plan.
  EXPECT_EQ(plan_assignment_tile(10, 64, 1001, 260260), 0u);
}

}  // namespace
}  // namespace winnow::gpu
