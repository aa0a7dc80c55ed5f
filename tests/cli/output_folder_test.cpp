// An output folder another pipeline made, through the binary. Without --overwrite the run is a
// refusal to start: exit 2, the reason, no summary (the other setup errors' way), and the folder
// as it was. With --overwrite everything the first pipeline wrote goes, its global/<stage>/
// results included (a stale duplicates table and completion marker would only mislead), and a
// file of the user's in the folder stays.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

class OutputFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    // Two copies of one document: exact_dedup has something to write in global/.
    fs::create_directories(dir_.file("in"));
    write_file(dir_.file("in/a.jsonl"),
               "{\"id\":\"1\",\"text\":\"one document with some words\"}\n"
               "{\"id\":\"2\",\"text\":\"another document with other words\"}\n"
               "{\"id\":\"3\",\"text\":\"one document with some words\"}\n");
    dedup_ = pipeline_file(
        dir_, "output: {format: jsonl}\nstages:\n  - {stage: exact_dedup, name: dedup_a}\n");
    std::string out;
    ASSERT_EQ(run(dedup_, "", &out), 0) << out;
    ASSERT_TRUE(fs::exists(dir_.file("out/global/dedup_a/_complete.json")));
    write_file(dir_.file("out/notes.txt"), "the user's own file");
    other_ = dir_.file("other.yaml");
    write_file(other_,
               "output: {format: jsonl}\nstages:\n  - {stage: word_count, min_words: 1}\n");
  }
  int run(const std::string& pipeline, const std::string& extra, std::string* out) {
    return winnow("run " + pipeline + " -i " + dir_.file("in") + " -o " + dir_.file("out") +
                      " --no-progress " + extra + " 2>&1",
                  out);
  }
  TempDir dir_;
  std::string dedup_, other_;
};

TEST_F(OutputFolder, AnotherPipelinesFolderIsARefusalToStart) {
  const auto before = read_output_tree(dir_.file("out"));
  std::string out;
  EXPECT_EQ(run(other_, "", &out), 2) << out;
  EXPECT_THAT(out, HasSubstr("holds shards made by a different pipeline"));
  EXPECT_THAT(out, HasSubstr("--overwrite"));
  EXPECT_THAT(out, Not(HasSubstr("FAILED")));
  EXPECT_THAT(out, Not(HasSubstr("= kept")));  // no summary of zeros
  EXPECT_TRUE(read_output_tree(dir_.file("out")) == before);
}

TEST_F(OutputFolder, OverwriteRemovesTheOtherPipelinesGlobalResultsAndKeepsTheUsersFiles) {
  std::string out;
  ASSERT_EQ(run(other_, "--overwrite", &out), 0) << out;
  EXPECT_FALSE(fs::exists(dir_.file("out/global"))) << "the first pipeline's dedup result stayed";
  EXPECT_EQ(read_file(dir_.file("out/notes.txt")), "the user's own file");
  EXPECT_EQ(split_lines(read_file(dir_.file("out/a.jsonl"))).size(), 3u);
}

// `dedup remove` reads its own pipeline's identify result: --overwrite keeps that one.
TEST_F(OutputFolder, DedupRemoveWithOverwriteKeepsTheResultItReads) {
  std::string out;
  ASSERT_EQ(winnow("dedup remove " + dedup_ + " -i " + dir_.file("in") + " -o " +
                       dir_.file("out") + " --no-progress --overwrite 2>&1",
                   &out),
            0)
      << out;
  EXPECT_TRUE(fs::exists(dir_.file("out/global/dedup_a/_complete.json")));
  EXPECT_EQ(split_lines(read_file(dir_.file("out/a.jsonl"))).size(), 2u);
  EXPECT_EQ(read_file(dir_.file("out/notes.txt")), "the user's own file");
}

}  // namespace
}  // namespace winnow::testing
