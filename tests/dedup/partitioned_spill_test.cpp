#include "dedup/partitioned_spill.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "test_support.h"

namespace winnow {
namespace {

using ::testing::HasSubstr;

struct Rec {
  uint64_t key;
  uint64_t value;
  bool operator<(const Rec& o) const { return key != o.key ? key < o.key : value < o.value; }
  bool operator==(const Rec& o) const { return key == o.key && value == o.value; }
};

uint64_t rec_hash(const Rec& r) { return r.key; }

// Partition contents as a sorted list of sorted partitions: order-free, comparable.
Result<std::vector<std::vector<Rec>>> collect(PartitionedSpill<Rec>& spill, int threads) {
  std::mutex mutex;
  std::vector<std::vector<Rec>> parts;
  Status s = spill.for_each_partition(threads, [&](std::vector<Rec>& recs) {
    std::sort(recs.begin(), recs.end());
    // Every key lives in exactly one partition.
    std::lock_guard lock(mutex);
    parts.push_back(recs);
    return Status::ok();
  });
  if (!s.is_ok()) return s;
  std::vector<Rec> all;
  for (auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  std::sort(all.begin(), all.end());
  return std::vector<std::vector<Rec>>{all};
}

std::vector<Rec> make_records(size_t n) {
  std::mt19937_64 rng(5);
  std::vector<Rec> recs(n);
  for (size_t i = 0; i < n; ++i) recs[i] = {rng() % (n / 3 + 1), i};
  return recs;
}

TEST(PartitionedSpill, SmallBudgetSpillsSplitsAndGivesTheSameRecords) {
  testing::TempDir dir;
  std::vector<Rec> recs = make_records(200000);
  PartitionedSpill<Rec> memory(dir.file("m"), "r", 16, 1 << 30, &rec_hash);
  PartitionedSpill<Rec> disk(dir.file("d"), "r", 16, 64 << 10, &rec_hash);  // 64 KB
  for (size_t i = 0; i < recs.size(); i += 1000) {
    ASSERT_TRUE(memory.add(recs.data() + i, 1000).is_ok());
    ASSERT_TRUE(disk.add(recs.data() + i, 1000).is_ok());
  }
  auto a = collect(memory, 2);
  auto b = collect(disk, 3);
  ASSERT_TRUE(a.is_ok() && b.is_ok()) << b.status().message();
  EXPECT_FALSE(memory.spilled());
  EXPECT_TRUE(disk.spilled());
  EXPECT_GT(disk.stats().splits, 0u);  // 200k x 16 B / 16 partitions > 64 KB / 3 threads
  EXPECT_EQ(a.value(), b.value());
  EXPECT_EQ(b.value()[0].size(), recs.size());
  // Spill files are removed once used.
  EXPECT_TRUE(std::filesystem::is_empty(dir.file("d")));
}

TEST(PartitionedSpill, RecordsWithTheSameHashMeetInOnePartition) {
  testing::TempDir dir;
  std::vector<Rec> recs = make_records(50000);
  PartitionedSpill<Rec> disk(dir.file("d"), "r", 8, 16 << 10, &rec_hash);
  ASSERT_TRUE(disk.add(recs.data(), recs.size()).is_ok());
  std::mutex mutex;
  std::map<uint64_t, int> partitions_of_key;
  Status s = disk.for_each_partition(2, [&](std::vector<Rec>& part) {
    std::set<uint64_t> keys;
    for (const Rec& r : part) keys.insert(r.key);
    std::lock_guard lock(mutex);
    for (uint64_t k : keys) ++partitions_of_key[k];
    return Status::ok();
  });
  ASSERT_TRUE(s.is_ok()) << s.message();
  for (const auto& [key, count] : partitions_of_key) ASSERT_EQ(count, 1) << key;
}

TEST(PartitionedSpill, FlippedByteInASpillFileIsDetectedNotUsed) {
  testing::TempDir dir;
  std::vector<Rec> recs = make_records(20000);
  PartitionedSpill<Rec> disk(dir.file("d"), "r", 4, 32 << 10, &rec_hash);
  ASSERT_TRUE(disk.add(recs.data(), recs.size()).is_ok());
  ASSERT_TRUE(disk.flush().is_ok());
  std::vector<std::string> files = disk.files();
  ASSERT_FALSE(files.empty());
  std::string bytes = testing::read_file(files[0]);
  bytes[bytes.size() / 2] ^= 0x01;
  testing::write_file(files[0], bytes);
  bool used = false;
  Status s = disk.for_each_partition(1, [&](std::vector<Rec>&) {
    used = true;
    return Status::ok();
  });
  ASSERT_FALSE(s.is_ok());
  EXPECT_THAT(s.message(), HasSubstr("is corrupt"));
  EXPECT_THAT(s.message(), HasSubstr(files[0]));
}

}  // namespace
}  // namespace winnow
