#include "models/length_batcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace winnow {
namespace {

std::vector<size_t> random_lengths(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<size_t> lengths(n);
  for (auto& l : lengths) l = 2 + rng() % 510;
  return lengths;
}

void expect_each_index_once(const std::vector<std::vector<size_t>>& batches, size_t n) {
  std::vector<int> seen(n, 0);
  for (const auto& batch : batches) {
    EXPECT_FALSE(batch.empty());
    for (size_t i : batch) ++seen[i];
  }
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << i;
}

TEST(LengthBatcher, FixedBatchesKeepInputOrder) {
  std::vector<size_t> lengths = random_lengths(70, 1);
  auto batches = plan_batches(lengths, {.by_length = false, .max_batch_size = 32});
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[2].size(), 6u);
  size_t next = 0;
  for (const auto& batch : batches) {
    for (size_t i : batch) EXPECT_EQ(i, next++);
  }
}

TEST(LengthBatcher, LengthBatchesFitTheBudgetAndSortWithinWindows) {
  std::vector<size_t> lengths = random_lengths(1000, 2);
  BatchPlanOptions options{
      .by_length = true, .max_batch_size = 64, .max_batch_tokens = 4096, .window = 300};
  auto batches = plan_batches(lengths, options);
  expect_each_index_once(batches, lengths.size());
  for (const auto& batch : batches) {
    size_t longest = 0;
    for (size_t i : batch) longest = std::max(longest, lengths[i]);
    EXPECT_LE(batch.size(), 64u);
    EXPECT_LE(batch.size() * longest, 4096u);
    // A batch never mixes windows.
    EXPECT_EQ(*std::min_element(batch.begin(), batch.end()) / 300,
              *std::max_element(batch.begin(), batch.end()) / 300);
  }
  // Far less padding than fixed batches of the same documents.
  auto fixed = plan_batches(lengths, {.by_length = false, .max_batch_size = 32});
  size_t real = 0;
  for (size_t l : lengths) real += l;
  EXPECT_LT(padded_tokens(lengths, batches), real * 11 / 10);
  EXPECT_GT(padded_tokens(lengths, fixed), real * 15 / 10);
}

TEST(LengthBatcher, ARowLongerThanTheBudgetGoesAlone) {
  std::vector<size_t> lengths = {10, 5000, 10};
  auto batches = plan_batches(lengths, {.by_length = true, .max_batch_tokens = 100});
  ASSERT_EQ(batches.size(), 2u);
  EXPECT_EQ(batches[0], (std::vector<size_t>{1}));
  EXPECT_EQ(batches[1], (std::vector<size_t>{0, 2}));
  EXPECT_TRUE(plan_batches(std::vector<size_t>{}, {}).empty());
}

// A memory row limit: each batch holds at most row_limit(its longest) rows, and no more batches
// than that needs: the next row of the same window would have broken the limit or the budget.
TEST(LengthBatcher, MemoryRowLimitCapsEachBatchByItsLongestRow) {
  std::vector<size_t> lengths = random_lengths(1000, 3);
  // What a memory model gives: fewer rows the longer they are (here 60000 / (40·s + s²/2)).
  auto limit = [](size_t longest) { return 60000 / (40 * longest + longest * longest / 2); };
  BatchPlanOptions options{.by_length = true,
                           .max_batch_size = 64,
                           .max_batch_tokens = 1 << 20,
                           .window = 250,
                           .row_limit = limit};
  auto batches = plan_batches(lengths, options);
  expect_each_index_once(batches, lengths.size());
  for (size_t b = 0; b < batches.size(); ++b) {
    const auto& batch = batches[b];
    // Longest first within a window: the first row is the batch's longest.
    size_t longest = lengths[batch.front()];
    for (size_t i : batch) EXPECT_LE(lengths[i], longest);
    const size_t cap = std::clamp<size_t>(limit(longest), 1, 64);
    EXPECT_LE(batch.size(), cap) << "longest " << longest;
    // Full unless the window ends here.
    const size_t window = batch.front() / 250;
    if (b + 1 < batches.size() && batches[b + 1].front() / 250 == window) {
      EXPECT_EQ(batch.size(), cap) << "longest " << longest;
    }
  }
  // Rows too long for any company (the limit is 0 at 500 tokens) still go, alone.
  auto alone = plan_batches(std::vector<size_t>{500, 500, 20},
                            {.by_length = true, .max_batch_tokens = 1 << 20, .row_limit = limit});
  ASSERT_EQ(alone.size(), 3u);
  EXPECT_EQ(alone[2], (std::vector<size_t>{2}));
}

}  // namespace
}  // namespace winnow
