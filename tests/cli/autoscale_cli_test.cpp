// The `winnow` binary under the autoscaler: the example pipeline gives the same bytes with and
// without it, and the output folder holds metrics.jsonl and report.html.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

TEST(CliAutoscale, ExamplePipelineGivesTheSameBytesAutoscaledOrFixed) {
  TempDir dir;
  fs::create_directories(dir.file("in"));
  write_corpus(dir.file("in"), 3, 400);
  std::string base = kWinnow + " run " + kSource + "/examples/example.yaml -i " + dir.file("in") +
                     " --batch-size 32 ";
  std::string out;
  ASSERT_EQ(run_command(base + "-o " + dir.file("auto") + " -t 4", &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("(autoscaled)"));
  EXPECT_THAT(out, HasSubstr("busy%"));
  ASSERT_EQ(run_command(base + "-o " + dir.file("fixed") + " -t 2 --no-autoscale", &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("(fixed workers)"));
  EXPECT_TRUE(read_output_tree(dir.file("auto")) == read_output_tree(dir.file("fixed")));
  for (const char* run : {"auto", "fixed"}) {
    EXPECT_FALSE(split_lines(read_file(dir.file(std::string(run) + "/metrics.jsonl"))).empty());
    EXPECT_THAT(read_file(dir.file(std::string(run) + "/report.html")), HasSubstr("<svg"));
  }
  simdjson::dom::parser parser;
  EXPECT_TRUE(bool(parser.load(dir.file("auto/stats.json"))["autoscale"]["enabled"]));
  EXPECT_FALSE(bool(parser.load(dir.file("fixed/stats.json"))["autoscale"]["enabled"]));
  // --overwrite removes what the run wrote, metrics and report included.
  ASSERT_EQ(run_command(base + "-o " + dir.file("fixed") + " --overwrite -q", &out), 0) << out;
  EXPECT_TRUE(fs::exists(dir.file("fixed/metrics.jsonl")));
}

TEST(CliAutoscale, BadResourceOptionsExitTwo) {
  TempDir dir;
  fs::create_directories(dir.file("in"));
  write_corpus(dir.file("in"), 1, 5);
  std::string out;
  EXPECT_EQ(run_command(kWinnow + " run " + kSource + "/examples/example.yaml -i " +
                            dir.file("in") + " -o " + dir.file("out") + " --gpus -1",
                        &out),
            2);
}

}  // namespace
}  // namespace winnow::testing
