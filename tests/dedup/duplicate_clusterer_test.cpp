#include "dedup/duplicate_clusterer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "dedup/table_text.h"
#include "test_support.h"

namespace winnow {
namespace {

using testing::finish_table;
using testing::table_text;

using ::testing::HasSubstr;

struct Doc {
  uint64_t key;
  std::vector<uint64_t> buckets;  // (band = index, key = value)
  double metric = 0;
};

std::vector<Doc> random_docs(size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<Doc> docs;
  for (size_t i = 0; i < n; ++i) {
    Doc d;
    d.key = (i % 7) * (uint64_t{1} << 40) + i;  // several shards
    for (int band = 0; band < 4; ++band) {
      // Small key spaces make shared buckets, hence chains and merged components.
      d.buckets.push_back(rng() % (n * 8));
    }
    d.metric = static_cast<double>(rng() % 5);
    docs.push_back(d);
  }
  return docs;
}

Result<DuplicatesTable> cluster(const std::vector<Doc>& docs, ClustererOptions options,
                                size_t chunk) {
  DuplicateClusterer clusterer(options);
  std::vector<BucketRecord> records;
  std::string infos;
  for (size_t i = 0; i < docs.size(); i += chunk) {
    records.clear();
    infos.clear();
    size_t end = std::min(docs.size(), i + chunk);
    for (size_t j = i; j < end; ++j) {
      for (size_t band = 0; band < docs[j].buckets.size(); ++band) {
        records.push_back({band, docs[j].buckets[band], docs[j].key});
      }
      DocInfoLog::serialize(infos, docs[j].key, docs[j].metric,
                            "id-" + std::to_string(docs[j].key % 1000));
    }
    Status s = clusterer.add(records.data(), records.size(), infos, end - i);
    if (!s.is_ok()) return s;
  }
  return finish_table(clusterer, options.spill_dir + ".table.jsonl");
}

TEST(DuplicateClusterer, ChainsMergeIntoComponentsWithSmallestKeyIds) {
  testing::TempDir dir;
  // 10 - 11 share band 0; 11 - 12 share band 1; 20 - 21 share band 0 (another key); 30 alone.
  std::vector<Doc> docs = {{12, {2, 5}, 0}, {10, {1, 3}, 0}, {11, {1, 5}, 0},
                           {21, {7, 8}, 0}, {20, {7, 9}, 0}, {30, {4, 6}, 0}};
  ClustererOptions options;
  options.spill_dir = dir.file("spill");
  auto table = cluster(docs, options, 2);
  ASSERT_TRUE(table.is_ok()) << table.status().message();
  EXPECT_EQ(table_text(*table),
            "10 10 S id-10\n11 10 - id-11\n12 10 - id-12\n20 20 S id-20\n21 20 - id-21\n");
  EXPECT_EQ(table->removed(), 3u);
  EXPECT_EQ(table->components(), 2u);
  RemovalSet removal = table->removal_set();
  ASSERT_NE(removal.find(12), nullptr);
  EXPECT_EQ(*removal.find(12), 10u);
  EXPECT_EQ(removal.find(10), nullptr);
  EXPECT_EQ(removal.find(30), nullptr);
}

// The same chain as stars: 12 is linked to 11 only, not to the survivor 10, so it stays; with
// the survivor chosen by metric (12 best), 11 goes to 12 and 10 stays instead.
TEST(DuplicateClusterer, StarsRemoveOnlyWhatMatchesTheSurvivorItself) {
  testing::TempDir dir;
  std::vector<Doc> docs = {{12, {2, 5}, 3}, {10, {1, 3}, 1}, {11, {1, 5}, 2},
                           {21, {7, 8}, 0}, {20, {7, 9}, 0}, {30, {4, 6}, 0}};
  ClustererOptions options;
  options.spill_dir = dir.file("spill");
  options.groups = GroupShape::kStars;
  auto table = cluster(docs, options, 2);
  ASSERT_TRUE(table.is_ok()) << table.status().message();
  EXPECT_EQ(table_text(*table), "10 10 S id-10\n11 10 - id-11\n20 20 S id-20\n21 20 - id-21\n");
  options.survivor = SurvivorRule::kHighestField;
  options.spill_dir = dir.file("spill2");
  table = cluster(docs, options, 3);
  ASSERT_TRUE(table.is_ok()) << table.status().message();
  EXPECT_EQ(table_text(*table), "11 11 - id-11\n12 11 S id-12\n20 20 S id-20\n21 20 - id-21\n");
}

TEST(DuplicateClusterer, SurvivorRules) {
  testing::TempDir dir;
  std::vector<Doc> docs = {{1, {1}, 5}, {2, {1}, 9}, {3, {1}, 9}, {4, {1}, NAN}};
  ClustererOptions options;
  options.spill_dir = dir.file("spill");
  options.survivor = SurvivorRule::kHighestField;
  auto table = cluster(docs, options, 10);
  ASSERT_TRUE(table.is_ok());
  // The highest metric wins; a tie goes to the smaller key; a missing value ranks last.
  EXPECT_EQ(table_text(*table), "1 1 - id-1\n2 1 S id-2\n3 1 - id-3\n4 1 - id-4\n");
  options.survivor = SurvivorRule::kSmallestKey;
  table = cluster(docs, options, 10);
  EXPECT_TRUE(table->entries[0].survivor);
}

// The table is the same whatever the threads, arrival chunks, partitions and memory budget;
// a tiny budget spills (and splits partitions) and still gives it.
TEST(DuplicateClusterer, SameTableForAnyThreadsChunksAndMemory) {
  testing::TempDir dir;
  std::vector<Doc> docs = random_docs(6000, 9);
  ClustererOptions base;
  base.spill_dir = dir.file("base");
  auto expected = cluster(docs, base, 1000);
  ASSERT_TRUE(expected.is_ok());
  ASSERT_GT(expected->entries.size(), 300u);
  std::string want = table_text(*expected);
  int run = 0;
  for (int threads : {1, 2, 4}) {
    for (size_t chunk : {7u, 4096u}) {
      for (size_t memory : {size_t{64} << 10, size_t{1} << 30}) {
        ClustererOptions o;
        o.spill_dir = dir.file("run" + std::to_string(run++));
        o.threads = threads;
        o.memory_bytes = memory;
        o.partitions = threads == 2 ? 5 : 64;
        std::vector<Doc> shuffled = docs;
        std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(run));
        auto got = cluster(shuffled, o, chunk);
        ASSERT_TRUE(got.is_ok()) << got.status().message();
        ASSERT_TRUE(table_text(*got) == want)
            << "threads " << threads << " chunk " << chunk << " memory " << memory;
      }
    }
  }
}

TEST(DuplicateClusterer, CorruptSpillFileFailsTheRun) {
  testing::TempDir dir;
  std::vector<Doc> docs = random_docs(5000, 4);
  ClustererOptions o;
  o.spill_dir = dir.file("spill");
  o.memory_bytes = 32 << 10;
  DuplicateClusterer clusterer(o);
  std::vector<BucketRecord> records;
  std::string infos;
  for (const Doc& d : docs) {
    for (size_t band = 0; band < d.buckets.size(); ++band) {
      records.push_back({band, d.buckets[band], d.key});
    }
    DocInfoLog::serialize(infos, d.key, 0, "x");
  }
  ASSERT_TRUE(clusterer.add(records.data(), records.size(), infos, docs.size()).is_ok());
  ASSERT_TRUE(clusterer.flush_for_test().is_ok());
  std::vector<std::string> files = clusterer.spill_files();
  ASSERT_FALSE(files.empty());
  std::string bytes = testing::read_file(files.back());
  bytes[bytes.size() - 3] ^= 0x40;
  testing::write_file(files.back(), bytes);
  auto table = finish_table(clusterer, dir.file("table.jsonl"));
  ASSERT_FALSE(table.is_ok());
  EXPECT_THAT(table.status().message(), HasSubstr("is corrupt"));
}

}  // namespace
}  // namespace winnow
