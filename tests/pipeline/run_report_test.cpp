#include "pipeline/run_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace winnow {
namespace {

using ::testing::HasSubstr;

// Two stages whose names share a prefix, each with its own counts and drops.
RunReport two_stage_report() {
  RunReport report;
  RunCounts& t = report.totals;
  t.documents = 10;
  t.kept = 7;
  t.dropped["strip/empty"] = 2;
  t.dropped["strip2/empty"] = 1;
  t.stage_counts["strip/chars_removed"] = 5120;
  t.stage_counts["strip/documents_changed"] = 6;
  t.stage_counts["strip2/chars_removed"] = 3;
  std::vector<StepTiming> timings = {{"read", "read"},
                                     {"strip", "url_remover", "document", "document"},
                                     {"strip2", "line_remover", "document", "document"}};
  report.steps = derive_steps(t, timings);
  return report;
}

TEST(RunReport, EachStepGetsItsOwnCounts) {
  RunReport report = two_stage_report();
  ASSERT_EQ(report.steps.size(), 3u);
  EXPECT_TRUE(report.steps[0].counts.empty());
  EXPECT_EQ(report.steps[1].counts,
            (std::map<std::string, uint64_t>{{"chars_removed", 5120}, {"documents_changed", 6}}));
  EXPECT_EQ(report.steps[2].counts, (std::map<std::string, uint64_t>{{"chars_removed", 3}}));
  // Counts are not items: items in and out follow the drops alone.
  EXPECT_EQ(report.steps[1].docs_in, 10u);
  EXPECT_EQ(report.steps[1].kept, 8u);
  EXPECT_EQ(report.steps[2].kept, 7u);
  EXPECT_EQ(step_activity_text(report.steps[1]), "chars_removed 5120, documents_changed 6");
  EXPECT_EQ(step_activity_text(report.steps[0]), "");
}

TEST(RunReport, StatsJsonAndSummaryShowTheCounts) {
  RunReport report = two_stage_report();
  auto path = std::filesystem::path(::testing::TempDir()) / "run_report_test_stats.json";
  ASSERT_TRUE(write_stats_json(report, path.string()).is_ok());
  std::stringstream json;
  json << std::ifstream(path).rdbuf();
  EXPECT_THAT(json.str(), HasSubstr("\"counts\": {\n        \"chars_removed\": 5120,"));
  EXPECT_THAT(json.str(), HasSubstr("\"strip2/chars_removed\": 3"));
  EXPECT_THAT(format_summary(report), HasSubstr("empty=2, chars_removed 5120, documents_changed 6"));
}

}  // namespace
}  // namespace winnow
