#include "pipeline/report_sample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <thread>

#include "core/hash.h"

namespace winnow {
namespace {

std::vector<uint64_t> keys_of(const std::vector<SampledItem>& items) {
  std::vector<uint64_t> keys;
  for (const SampledItem& item : items) keys.push_back(item.key);
  return keys;
}

// The expected sample, computed over the whole set at once (not streamed): the k keys of
// smallest seeded hash.
std::vector<uint64_t> smallest_ranks(std::vector<uint64_t> keys, size_t k, uint64_t seed) {
  std::sort(keys.begin(), keys.end(), [&](uint64_t a, uint64_t b) {
    return hash_u64(a, seed) < hash_u64(b, seed);
  });
  keys.resize(std::min(k, keys.size()));
  return keys;
}

std::vector<uint64_t> streamed(const std::vector<uint64_t>& keys, size_t k, uint64_t seed,
                               size_t threads) {
  ReportSample sample(k, seed);
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (size_t i = t; i < keys.size(); i += threads) {
        SampledItem item;
        item.key = keys[i];
        if (sample.wants("dedup/duplicate", item.key)) sample.offer("dedup/duplicate", item);
      }
    });
  }
  for (std::thread& th : pool) th.join();
  return keys_of(sample.items()["dedup/duplicate"]);
}

TEST(ReportSample, KeepsTheSmallestSeededRanksWhateverTheThreadsAndOrder) {
  std::vector<uint64_t> keys(5000);
  std::iota(keys.begin(), keys.end(), 1000);
  std::vector<uint64_t> expected = smallest_ranks(keys, 7, 42);
  EXPECT_EQ(streamed(keys, 7, 42, 1), expected);
  EXPECT_EQ(streamed(keys, 7, 42, 8), expected);
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(3));
  EXPECT_EQ(streamed(keys, 7, 42, 3), expected);
}

TEST(ReportSample, TheSeedChangesTheSample) {
  std::vector<uint64_t> keys(5000);
  std::iota(keys.begin(), keys.end(), 0);
  EXPECT_NE(streamed(keys, 7, 1, 1), streamed(keys, 7, 2, 1));
  EXPECT_EQ(streamed(keys, 7, 2, 1), smallest_ranks(keys, 7, 2));
}

TEST(ReportSample, IsBoundedPerCategoryAndKeepsCategoriesApart) {
  ReportSample sample(3, 9);
  for (uint64_t key = 0; key < 100; ++key) {
    SampledItem item;
    item.key = key;
    sample.offer(key % 2 ? "kept" : "filter/low_score", item);
  }
  sample.offer("kept", SampledItem{});  // key 0 again, in the other category
  auto items = sample.items();
  ASSERT_EQ(items.size(), 2u);
  for (const auto& [category, list] : items) {
    ASSERT_EQ(list.size(), 3u) << category;
    for (const SampledItem& item : list) EXPECT_EQ(item.key % 2, category == "kept" ? 1u : 0u);
  }
}

TEST(ReportSample, AKeyOfferedTwiceIsKeptOnce) {
  ReportSample sample(4, 9);
  for (int round = 0; round < 2; ++round) {
    for (uint64_t key = 0; key < 3; ++key) sample.offer("kept", SampledItem{key});
  }
  EXPECT_EQ(sample.items()["kept"].size(), 3u);
}

TEST(ReportSample, ZeroPerCategoryKeepsNothing) {
  ReportSample sample(0, 9);
  EXPECT_FALSE(sample.wants("kept", 1));
  sample.offer("kept", SampledItem{1});
  EXPECT_TRUE(sample.items().empty());
}

SampledItem with_thumbnail(uint64_t key, size_t bytes) {
  SampledItem item;
  item.key = key;
  item.thumbnail_jpeg.assign(bytes, 'x');
  return item;
}

TEST(FitThumbnails, DropsTheLargestFirstUntilUnderTheBudget) {
  std::map<std::string, std::vector<SampledItem>> sample;
  sample["kept"] = {with_thumbnail(1, 3000), with_thumbnail(2, 300)};
  sample["f/r"] = {with_thumbnail(3, 900), with_thumbnail(4, 30)};
  // Base64 of 300, 900 and 30 bytes (+23 for "data:image/jpeg;base64,"): 423, 1223, 63.
  size_t budget = 423 + 1223 + 63;
  EXPECT_EQ(fit_thumbnails(sample, budget), 1u);
  EXPECT_TRUE(sample["kept"][0].thumbnail_jpeg.empty());
  EXPECT_EQ(sample["kept"][1].thumbnail_jpeg.size(), 300u);
  EXPECT_EQ(fit_thumbnails(sample, budget - 1), 1u);  // now the 900-byte one goes
  EXPECT_TRUE(sample["f/r"][0].thumbnail_jpeg.empty());
  EXPECT_EQ(fit_thumbnails(sample, 0), 2u);
  EXPECT_EQ(fit_thumbnails(sample, 0), 0u);
}

}  // namespace
}  // namespace winnow
