#include "io/stored_batches.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

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

TEST(StoredBatches, BatchesStoredInAnyOrderComeBackThenTheEndMarker) {
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
  EXPECT_EQ(seen, order);
  EXPECT_TRUE(reader.failure().empty());
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
}

}  // namespace
}  // namespace winnow
