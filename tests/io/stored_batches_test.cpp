#include "io/stored_batches.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>

#include "test_support.h"

namespace winnow {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

std::unique_ptr<DocBatch> numbered_batch(uint32_t shard, uint64_t sequence, size_t docs) {
  auto batch = std::make_unique<DocBatch>();
  batch->shard = shard;
  batch->sequence = sequence;
  for (size_t i = 0; i < docs; ++i) {
    std::string text = "document " + std::to_string(sequence) + "/" + std::to_string(i);
    batch->add_document(DocKey::make(shard, sequence * 100 + i), "id" + std::to_string(i), false,
                        text, {}, i + 1);
  }
  return batch;
}

// Workers store a shard's batches in any order; they come back in sequence order, as the
// writer of the pass that reads them needs (stored_batches.h says why).
TEST(StoredBatches, BatchesStoredInAnyOrderComeBackInSequenceOrderThenTheEndMarker) {
  TempDir dir;
  std::string path = dir.file("shard.wnb.zst");
  auto writer = StoredBatchWriter::create(path);
  ASSERT_TRUE(writer.is_ok()) << writer.status().message();
  std::vector<uint64_t> order = {3, 0, 4, 1, 2};
  for (uint64_t seq : order) ASSERT_TRUE((*writer)->store(*numbered_batch(9, seq, 7)).is_ok());
  ASSERT_TRUE((*writer)->commit().is_ok());
  // Written as zstd: the zstd command reads it.
  EXPECT_EQ(testing::run_command("zstd -tq " + path), 0);

  StoredBatchReader reader(path, 9);
  std::vector<uint64_t> seen;
  while (auto batch = reader.next()) {
    if (batch->end_of_shard) {
      EXPECT_EQ(batch->sequence, 5u);  // the number of batches
      continue;
    }
    seen.push_back(batch->sequence);
    ASSERT_EQ(batch->size(), 7u);
    EXPECT_EQ(batch->text(6), "document " + std::to_string(batch->sequence) + "/6");
  }
  EXPECT_EQ(seen, (std::vector<uint64_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(reader.failure().empty());
}

// Shuffled over many batches from several threads, as a pass's workers store them.
TEST(StoredBatches, ManyBatchesFromSeveralThreadsComeBackInOrder) {
  TempDir dir;
  std::string path = dir.file("shard.wnb.zst");
  auto writer = StoredBatchWriter::create(path);
  ASSERT_TRUE(writer.is_ok());
  std::vector<uint64_t> order(300);
  for (uint64_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  std::vector<std::thread> threads;
  for (size_t t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < order.size(); i += 3) {
        EXPECT_TRUE((*writer)->store(*numbered_batch(0, order[i], 2)).is_ok());
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_TRUE((*writer)->commit().is_ok());
  StoredBatchReader reader(path, 0);
  uint64_t expected = 0;
  while (auto batch = reader.next()) {
    EXPECT_EQ(batch->sequence, expected++);
  }
  EXPECT_EQ(expected, order.size() + 1);  // and the end marker
  EXPECT_TRUE(reader.failure().empty()) << reader.failure();
}

// A batch that never came (a pass ended without it) makes the file fail to commit, and a batch
// stored twice is refused: neither may pass as a whole shard.
TEST(StoredBatches, AMissingOrRepeatedBatchIsAnError) {
  TempDir dir;
  auto writer = StoredBatchWriter::create(dir.file("gap.wnb.zst"));
  ASSERT_TRUE(writer.is_ok());
  ASSERT_TRUE((*writer)->store(*numbered_batch(0, 0, 1)).is_ok());
  ASSERT_TRUE((*writer)->store(*numbered_batch(0, 2, 1)).is_ok());
  EXPECT_FALSE((*writer)->store(*numbered_batch(0, 0, 1)).is_ok());
  EXPECT_FALSE((*writer)->store(*numbered_batch(0, 2, 1)).is_ok());
  Status committed = (*writer)->commit();
  ASSERT_FALSE(committed.is_ok());
  EXPECT_THAT(committed.message(), HasSubstr("batch 1 never came"));
}

TEST(StoredBatches, DamageIsAFailureNamingTheFile) {
  TempDir dir;
  std::string path = dir.file("shard.wnb.zst");
  auto writer = StoredBatchWriter::create(path);
  ASSERT_TRUE(writer.is_ok());
  for (uint64_t seq = 0; seq < 3; ++seq) {
    ASSERT_TRUE((*writer)->store(*numbered_batch(1, seq, 50)).is_ok());
  }
  ASSERT_TRUE((*writer)->commit().is_ok());
  std::string plain = testing::read_decompressed(path);
  // A flipped byte inside a batch (checksum), a cut file, a batch of another shard.
  std::string flipped = plain;
  flipped[plain.size() / 2] ^= 0x20;
  std::string cut = plain.substr(0, plain.size() - 10);
  for (const auto& [name, bytes, words] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"flipped", flipped, "checksum"}, {"cut", cut, "cut short"}}) {
    std::string damaged = dir.file(name + ".wnb.zst");
    testing::write_file(damaged, testing::compress(bytes, Compression::kZstd));
    StoredBatchReader reader(damaged, 1);
    size_t batches = 0;
    while (auto batch = reader.next()) ++batches;
    EXPECT_LT(batches, 4u) << name;
    EXPECT_THAT(reader.failure(), HasSubstr(damaged)) << name;
    EXPECT_THAT(reader.failure(), HasSubstr(words)) << name;
  }
  StoredBatchReader wrong_shard(path, 2);
  EXPECT_EQ(wrong_shard.next(), nullptr);
  EXPECT_THAT(wrong_shard.failure(), HasSubstr("another shard"));

  // Records out of sequence order (the second and first batch swapped).
  size_t first_end = 16 + static_cast<size_t>(*reinterpret_cast<const uint64_t*>(plain.data()));
  size_t second_end =
      first_end + 16 + static_cast<size_t>(*reinterpret_cast<const uint64_t*>(&plain[first_end]));
  std::string swapped = plain.substr(first_end, second_end - first_end) +
                        plain.substr(0, first_end) + plain.substr(second_end);
  std::string out_of_order = dir.file("swapped.wnb.zst");
  testing::write_file(out_of_order, testing::compress(swapped, Compression::kZstd));
  StoredBatchReader reader(out_of_order, 1);
  while (reader.next()) {
  }
  EXPECT_THAT(reader.failure(), HasSubstr("out of order"));
}

}  // namespace
}  // namespace winnow
