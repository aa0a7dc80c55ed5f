#include "io/atomic_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::read_file;
using testing::TempDir;
using testing::write_file;

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

std::string temp_name(const std::string& name) {
  return "." + name + ".tmp-" + std::to_string(::getpid());
}

AtomicFile create_ok(const std::string& path) {
  auto file = AtomicFile::create(path);
  if (!file.is_ok()) throw std::runtime_error(file.status().message());
  return std::move(file).value();
}

TEST(AtomicFile, WritesUnderATemporaryNameUntilCommit) {
  TempDir dir;
  AtomicFile file = create_ok(dir.file("out.jsonl"));
  EXPECT_EQ(file.final_path(), dir.file("out.jsonl"));
  EXPECT_THAT(list_dir(dir.path()), ElementsAre(temp_name("out.jsonl")));
  ASSERT_TRUE(file.write("hello ").is_ok());
  ASSERT_TRUE(file.write("").is_ok());
  ASSERT_TRUE(file.write("world").is_ok());
  EXPECT_FALSE(fs::exists(dir.file("out.jsonl")));
  EXPECT_EQ(read_file(dir.file(temp_name("out.jsonl"))), "hello world");
  ASSERT_TRUE(file.commit().is_ok());
  EXPECT_THAT(list_dir(dir.path()), ElementsAre("out.jsonl"));
  EXPECT_EQ(read_file(dir.file("out.jsonl")), "hello world");
}

TEST(AtomicFile, CommittedFileSurvivesDestruction) {
  TempDir dir;
  {
    AtomicFile file = create_ok(dir.file("a"));
    ASSERT_TRUE(file.write("kept").is_ok());
    ASSERT_TRUE(file.commit().is_ok());
  }
  EXPECT_THAT(list_dir(dir.path()), ElementsAre("a"));
  EXPECT_EQ(read_file(dir.file("a")), "kept");
}

TEST(AtomicFile, CommitReplacesAnExistingFile) {
  TempDir dir;
  write_file(dir.file("a"), "old old old old");
  AtomicFile file = create_ok(dir.file("a"));
  ASSERT_TRUE(file.write("new").is_ok());
  EXPECT_EQ(read_file(dir.file("a")), "old old old old");
  ASSERT_TRUE(file.commit().is_ok());
  EXPECT_EQ(read_file(dir.file("a")), "new");
  EXPECT_THAT(list_dir(dir.path()), ElementsAre("a"));
}

TEST(AtomicFile, EmptyCommitCreatesAnEmptyFile) {
  TempDir dir;
  AtomicFile file = create_ok(dir.file("empty"));
  ASSERT_TRUE(file.commit().is_ok());
  EXPECT_TRUE(fs::exists(dir.file("empty")));
  EXPECT_EQ(fs::file_size(dir.file("empty")), 0u);
}

TEST(AtomicFile, AbandonRemovesTheTemporaryAndKeepsTheOldFile) {
  TempDir dir;
  write_file(dir.file("a"), "previous run");
  AtomicFile file = create_ok(dir.file("a"));
  ASSERT_TRUE(file.write("half written").is_ok());
  file.abandon();
  EXPECT_THAT(list_dir(dir.path()), ElementsAre("a"));
  EXPECT_EQ(read_file(dir.file("a")), "previous run");
  file.abandon();  // idempotent
  EXPECT_THAT(list_dir(dir.path()), ElementsAre("a"));
}

TEST(AtomicFile, DestroyedUncommittedRemovesTheTemporary) {
  TempDir dir;
  {
    AtomicFile file = create_ok(dir.file("b.jsonl.zst"));
    ASSERT_TRUE(file.write(std::string(100000, 'x')).is_ok());
    EXPECT_FALSE(list_dir(dir.path()).empty());
  }
  EXPECT_TRUE(list_dir(dir.path()).empty());
}

TEST(AtomicFile, MoveTransfersOwnershipOfTheTemporary) {
  TempDir dir;
  AtomicFile first = create_ok(dir.file("first"));
  ASSERT_TRUE(first.write("one").is_ok());
  {
    AtomicFile moved(std::move(first));
    // The moved-from object must not remove the file it no longer owns.
    first.abandon();
    EXPECT_THAT(list_dir(dir.path()), ElementsAre(temp_name("first")));
    ASSERT_TRUE(moved.write("two").is_ok());
    ASSERT_TRUE(moved.commit().is_ok());
  }
  EXPECT_THAT(list_dir(dir.path()), ElementsAre("first"));
  EXPECT_EQ(read_file(dir.file("first")), "onetwo");
}

TEST(AtomicFile, MoveAssignmentAbandonsTheOverwrittenFile) {
  TempDir dir;
  AtomicFile a = create_ok(dir.file("a"));
  AtomicFile b = create_ok(dir.file("b"));
  EXPECT_EQ(list_dir(dir.path()).size(), 2u);
  a = std::move(b);
  EXPECT_THAT(list_dir(dir.path()), ElementsAre(temp_name("b")));
  EXPECT_EQ(a.final_path(), dir.file("b"));
  ASSERT_TRUE(a.write("b data").is_ok());
  ASSERT_TRUE(a.commit().is_ok());
  EXPECT_THAT(list_dir(dir.path()), ElementsAre("b"));
}

TEST(AtomicFile, CreateInAMissingDirectoryFailsNamingThePath) {
  TempDir dir;
  auto file = AtomicFile::create(dir.file("missing/out.jsonl"));
  ASSERT_FALSE(file.is_ok());
  EXPECT_THAT(file.status().message(), HasSubstr(dir.file("missing")));
  EXPECT_THAT(file.status().message(), HasSubstr("out.jsonl"));
}

TEST(AtomicFile, RecognisesTemporaryNames) {
  EXPECT_TRUE(AtomicFile::is_temporary_name(temp_name("part-00001.jsonl.zst")));
  EXPECT_TRUE(AtomicFile::is_temporary_name(".x.tmp-1"));
  EXPECT_FALSE(AtomicFile::is_temporary_name("part-00001.jsonl.zst"));
  EXPECT_FALSE(AtomicFile::is_temporary_name("x.tmp-123"));  // not hidden
  EXPECT_FALSE(AtomicFile::is_temporary_name(".hidden"));
  EXPECT_FALSE(AtomicFile::is_temporary_name(".tmp"));
  EXPECT_FALSE(AtomicFile::is_temporary_name("."));
  EXPECT_FALSE(AtomicFile::is_temporary_name(""));
  // The names create() actually uses are recognised.
  TempDir dir;
  AtomicFile file = create_ok(dir.file("stats.json"));
  std::vector<std::string> names = list_dir(dir.path());
  ASSERT_EQ(names.size(), 1u);
  EXPECT_TRUE(AtomicFile::is_temporary_name(names[0])) << names[0];
}

TEST(AtomicFile, WriteWholeWritesAndReplaces) {
  TempDir dir;
  ASSERT_TRUE(AtomicFile::write_whole(dir.file("_SUCCESS"), "").is_ok());
  ASSERT_TRUE(AtomicFile::write_whole(dir.file("stats.json"), "{\"a\":1}\n").is_ok());
  EXPECT_THAT(list_dir(dir.path()), ElementsAre("_SUCCESS", "stats.json"));
  EXPECT_EQ(read_file(dir.file("_SUCCESS")), "");
  EXPECT_EQ(read_file(dir.file("stats.json")), "{\"a\":1}\n");
  ASSERT_TRUE(AtomicFile::write_whole(dir.file("stats.json"), "{\"a\":2}\n").is_ok());
  EXPECT_EQ(read_file(dir.file("stats.json")), "{\"a\":2}\n");
  EXPECT_THAT(list_dir(dir.path()), ElementsAre("_SUCCESS", "stats.json"));
}

TEST(AtomicFile, WriteWholeFailsInAMissingDirectory) {
  TempDir dir;
  Status s = AtomicFile::write_whole(dir.file("nope/stats.json"), "x");
  ASSERT_FALSE(s.is_ok());
  EXPECT_THAT(s.message(), HasSubstr(dir.file("nope")));
  EXPECT_FALSE(fs::exists(dir.file("nope")));
}

}  // namespace
}  // namespace winnow
