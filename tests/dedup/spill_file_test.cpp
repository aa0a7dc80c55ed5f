#include "dedup/spill_file.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace winnow {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

Status write_blocks(const std::string& path, uint64_t& bytes) {
  SpillWriter writer;
  WINNOW_RETURN_IF_ERROR(writer.open(path));
  WINNOW_RETURN_IF_ERROR(writer.append_block("first block", 11));
  WINNOW_RETURN_IF_ERROR(writer.append_block("", 0));
  std::string big(100000, 'x');
  WINNOW_RETURN_IF_ERROR(writer.append_block(big.data(), big.size()));
  bytes = writer.bytes_written();
  return writer.close();
}

Status read_all(const std::string& path, uint64_t bytes, std::vector<std::string>& blocks) {
  SpillReader reader;
  WINNOW_RETURN_IF_ERROR(reader.open(path, bytes));
  std::string block;
  while (true) {
    auto more = reader.next_block(block);
    if (!more.is_ok()) return more.status();
    if (!*more) return Status::ok();
    blocks.push_back(block);
  }
}

TEST(SpillFile, RoundTrip) {
  TempDir dir;
  uint64_t bytes = 0;
  ASSERT_TRUE(write_blocks(dir.file("a.spill"), bytes).is_ok());
  std::vector<std::string> blocks;
  ASSERT_TRUE(read_all(dir.file("a.spill"), bytes, blocks).is_ok());
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0], "first block");
  EXPECT_EQ(blocks[1], "");
  EXPECT_EQ(blocks[2], std::string(100000, 'x'));
}

// Every single flipped byte, anywhere in the file (headers included), is detected.
TEST(SpillFile, EveryFlippedByteIsDetected) {
  TempDir dir;
  std::string path = dir.file("a.spill");
  uint64_t bytes = 0;
  SpillWriter writer;
  ASSERT_TRUE(writer.open(path).is_ok());
  ASSERT_TRUE(writer.append_block("0123456789abcdef", 16).is_ok());
  ASSERT_TRUE(writer.append_block("second", 6).is_ok());
  bytes = writer.bytes_written();
  ASSERT_TRUE(writer.close().is_ok());
  std::string original = testing::read_file(path);
  for (size_t at = 0; at < original.size(); ++at) {
    std::string damaged = original;
    damaged[at] ^= 0x10;
    testing::write_file(path, damaged);
    std::vector<std::string> blocks;
    Status s = read_all(path, bytes, blocks);
    ASSERT_FALSE(s.is_ok()) << "flip at byte " << at << " went unnoticed";
    EXPECT_THAT(s.message(), HasSubstr("is corrupt"));
  }
}

TEST(SpillFile, TruncatedOrExtendedFileIsDetected) {
  TempDir dir;
  std::string path = dir.file("a.spill");
  uint64_t bytes = 0;
  ASSERT_TRUE(write_blocks(path, bytes).is_ok());
  std::string original = testing::read_file(path);
  // Cut at a block boundary: every block left is valid, but the size says a block is missing.
  testing::write_file(path, original.substr(0, 24 + 11));
  std::vector<std::string> blocks;
  Status s = read_all(path, bytes, blocks);
  ASSERT_FALSE(s.is_ok());
  EXPECT_THAT(s.message(), HasSubstr("bytes on disk"));
  testing::write_file(path, original + "x");
  EXPECT_FALSE(read_all(path, bytes, blocks).is_ok());
}

// A SpillLog keeps what fits in memory and spills the rest, a block per spill, into a folder
// it makes; every record comes back once, spilled blocks first, and again on a second pass.
TEST(SpillLog, SpillsPastItsBudgetAndReadsEverythingBack) {
  TempDir dir;
  SpillLog log(dir.file("sub/log.spill"), 4096);
  std::string all;
  for (int i = 0; i < 1000; ++i) {
    std::string record = fmt::format("record {:04d};", i);
    ASSERT_TRUE(log.add(record).is_ok());
    all += record;
  }
  EXPECT_GT(log.spilled_bytes(), 0u);
  EXPECT_TRUE(std::filesystem::exists(dir.file("sub/log.spill")));
  for (int pass = 0; pass < 2; ++pass) {
    std::string read;
    size_t blocks = 0;
    ASSERT_TRUE(log.for_each_block([&](std::string_view block) {
                     read += block;
                     ++blocks;
                     return Status::ok();
                   }).is_ok());
    EXPECT_EQ(read, all) << "pass " << pass;
    EXPECT_GT(blocks, 2u);
  }
}

TEST(SpillLog, UnderItsBudgetNothingIsWritten) {
  TempDir dir;
  SpillLog log(dir.file("log.spill"), 1 << 20);
  ASSERT_TRUE(log.add("a").is_ok());
  ASSERT_TRUE(log.add("bc").is_ok());
  EXPECT_EQ(log.spilled_bytes(), 0u);
  EXPECT_FALSE(std::filesystem::exists(dir.file("log.spill")));
  std::string read;
  ASSERT_TRUE(log.for_each_block([&](std::string_view block) {
                   read += block;
                   return Status::ok();
                 }).is_ok());
  EXPECT_EQ(read, "abc");
}

}  // namespace
}  // namespace winnow
