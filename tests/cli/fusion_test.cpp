// Stage fusion end to end: the shipped pipelines over the example corpus (this machine's
// documentation) give the same bytes with and without `--no-fuse`, whatever the threads and
// batch size, including examples/example.yaml, whose dedup identify passes run fused stages
// too; stats.json keeps one entry per stage and names the fused groups.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

class Fusion : public ExampleCorpusTest {
 protected:
  // Runs an example pipeline over the corpus; returns the summary printed.
  static std::string run(const std::string& pipeline, const std::string& out_name,
                         const std::string& extra) {
    std::string out = run_winnow(kSource + "/examples/" + pipeline, out_name, extra);
    EXPECT_THAT(out, HasSubstr("reconciled"));
    return out;
  }

  // Per stage: name, items in, items out, drops by reason.
  static std::vector<std::string> step_counts(const std::string& out_name) {
    simdjson::dom::parser parser;
    simdjson::dom::element stats = parser.load(dir_->file(out_name + "/stats.json"));
    std::vector<std::string> rows;
    for (simdjson::dom::element step : stats["steps"].get_array()) {
      std::string row = std::string(std::string_view(step["name"].get_string())) + " " +
                        std::to_string(uint64_t(step["items_in"])) + " " +
                        std::to_string(uint64_t(step["items_out"]));
      for (auto [reason, n] : simdjson::dom::object(step["dropped"])) {
        row += " " + std::string(reason) + "=" + std::to_string(uint64_t(n));
      }
      rows.push_back(row);
    }
    return rows;
  }

};

TEST_F(Fusion, NemoEnglishSameBytesFusedOrNot) {
  std::string summary = run("nemo_english.yaml", "unfused", "--no-fuse --threads 2");
  EXPECT_THAT(summary, ::testing::Not(HasSubstr("fused:")));
  auto expected = read_output_tree(dir_->file("unfused"));
  auto expected_counts = step_counts("unfused");
  ASSERT_EQ(expected_counts.size(), 32u);  // read, parse, 28 filters, encode, write
  for (const char* options :
       {"--threads 1 --batch-size 1000", "--threads 2 --batch-size 37",
        "--threads 4 --batch-size 128", "--no-fuse --threads 4 --batch-size 9"}) {
    SCOPED_TRACE(options);
    summary = run("nemo_english.yaml", "run", options);
    EXPECT_TRUE(read_output_tree(dir_->file("run")) == expected);
    EXPECT_EQ(step_counts("run"), expected_counts);
  }
  summary = run("nemo_english.yaml", "fused", "--threads 2");
  EXPECT_THAT(summary, HasSubstr("fused: fused(read..write) ran its 32 steps in turn"));
  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(dir_->file("fused/stats.json"));
  EXPECT_TRUE(bool(stats["fuse"].get_bool()));
  ASSERT_EQ(simdjson::dom::array(stats["fused_groups"]).size(), 1u);
  EXPECT_EQ(simdjson::dom::array(stats["fused_groups"].at(0)["stages"]).size(), 32u);
}

TEST_F(Fusion, ExamplePipelineWithDedupSameBytesFusedOrNot) {
  run("example.yaml", "unfused", "--no-fuse --threads 2 --batch-size 64");
  auto expected = read_output_tree(dir_->file("unfused"));
  auto expected_counts = step_counts("unfused");
  for (const char* options : {"--threads 1", "--threads 3 --batch-size 50"}) {
    SCOPED_TRACE(options);
    run("example.yaml", "run", options);
    EXPECT_TRUE(read_output_tree(dir_->file("run")) == expected);
    EXPECT_EQ(step_counts("run"), expected_counts);
  }
}

}  // namespace
}  // namespace winnow::testing
