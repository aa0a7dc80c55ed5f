#include "core/run_counts.h"

#include "core/reason_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace winnow {
namespace {

using ::testing::HasSubstr;

RunCounts sample_counts() {
  RunCounts c;
  c.documents = 100;
  c.kept = 80;
  c.dropped["length/too_short"] = 12;
  c.dropped["sample/not_sampled"] = 5;
  c.errors["malformed_json"] = 3;
  c.blank_lines = 4;
  c.input_bytes = 123456789012ull;
  c.output_bytes = 98765;
  c.stage_counts["strip/chars_removed"] = 5120;
  return c;
}

std::string to_json(const RunCounts& c, bool pretty) {
  JsonWriter w(pretty);
  c.write_json(w);
  return w.take();
}

void expect_equal(const RunCounts& a, const RunCounts& b) {
  EXPECT_EQ(a.documents, b.documents);
  EXPECT_EQ(a.kept, b.kept);
  EXPECT_EQ(a.dropped, b.dropped);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.blank_lines, b.blank_lines);
  EXPECT_EQ(a.input_bytes, b.input_bytes);
  EXPECT_EQ(a.output_bytes, b.output_bytes);
  EXPECT_EQ(a.stage_counts, b.stage_counts);
}

TEST(RunCounts, Totals) {
  RunCounts c = sample_counts();
  EXPECT_EQ(c.dropped_total(), 17u);
  EXPECT_EQ(c.errors_total(), 3u);
  EXPECT_TRUE(c.reconciles());
  RunCounts empty;
  EXPECT_EQ(empty.dropped_total(), 0u);
  EXPECT_TRUE(empty.reconciles());
}

TEST(RunCounts, ReconcilesOnlyWhenEveryRecordIsAccountedFor) {
  RunCounts c = sample_counts();
  c.documents = 101;
  EXPECT_FALSE(c.reconciles());
  c.documents = 100;
  c.errors["line_too_long"] = 1;
  EXPECT_FALSE(c.reconciles());
  c.kept = 79;
  EXPECT_TRUE(c.reconciles());
  // Blank lines are not documents.
  c.blank_lines = 1000;
  EXPECT_TRUE(c.reconciles());
}

TEST(RunCounts, MergeAddsEverything) {
  RunCounts a = sample_counts();
  RunCounts b;
  b.documents = 10;
  b.kept = 6;
  b.dropped["length/too_short"] = 1;
  b.dropped["dedup/duplicate"] = 2;
  b.errors["invalid_utf8"] = 1;
  b.blank_lines = 1;
  b.input_bytes = 11;
  b.output_bytes = 7;
  b.stage_counts["strip/chars_removed"] = 80;
  b.stage_counts["pii/EMAIL_ADDRESS"] = 2;
  a.merge(b);
  EXPECT_EQ(a.documents, 110u);
  EXPECT_EQ(a.kept, 86u);
  EXPECT_EQ(a.dropped.at("length/too_short"), 13u);
  EXPECT_EQ(a.dropped.at("dedup/duplicate"), 2u);
  EXPECT_EQ(a.dropped.at("sample/not_sampled"), 5u);
  EXPECT_EQ(a.errors.at("malformed_json"), 3u);
  EXPECT_EQ(a.errors.at("invalid_utf8"), 1u);
  EXPECT_EQ(a.blank_lines, 5u);
  EXPECT_EQ(a.input_bytes, 123456789023ull);
  EXPECT_EQ(a.output_bytes, 98772u);
  EXPECT_EQ(a.stage_counts.at("strip/chars_removed"), 5200u);
  EXPECT_EQ(a.stage_counts.at("pii/EMAIL_ADDRESS"), 2u);
  EXPECT_TRUE(a.reconciles());
  // b is unchanged, and merging into an empty count copies.
  EXPECT_EQ(b.documents, 10u);
  RunCounts c;
  c.merge(b);
  expect_equal(c, b);
}

TEST(RunCounts, JsonRoundTrip) {
  for (bool pretty : {false, true}) {
    RunCounts c = sample_counts();
    c.dropped["odd \"stage\"/reason\\x"] = 1;
    c.documents += 1;
    auto parsed = RunCounts::parse_json(to_json(c, pretty));
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
    expect_equal(parsed.value(), c);
  }
  RunCounts empty;
  auto parsed = RunCounts::parse_json(to_json(empty, false));
  ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
  expect_equal(parsed.value(), empty);
}

TEST(RunCounts, JsonCarriesTotals) {
  std::string json = to_json(sample_counts(), false);
  EXPECT_THAT(json, HasSubstr("\"documents\":100"));
  EXPECT_THAT(json, HasSubstr("\"kept\":80"));
  EXPECT_THAT(json, HasSubstr("\"dropped\":17"));
  EXPECT_THAT(json, HasSubstr("\"errors\":3"));
  EXPECT_THAT(json, HasSubstr("\"length/too_short\":12"));
  EXPECT_THAT(json, HasSubstr("\"stage_counts\":{\"strip/chars_removed\":5120}"));
}

// A stage's counts travel with its batches: the writer's add_batch sums them, batch by batch,
// and they are not documents (the accounting still reconciles).
TEST(RunCounts, AddBatchSumsWhatStagesCounted) {
  ReasonTable reasons;
  RunCounts c;
  for (uint64_t n : {3u, 4u}) {
    DocBatch batch;
    batch.stage_counts["strip/chars_removed"] = n;
    batch.stage_counts["strip/documents_changed"] = 1;
    c.add_batch(batch, reasons, ItemKind::kDocument);
  }
  EXPECT_EQ(c.stage_counts.at("strip/chars_removed"), 7u);
  EXPECT_EQ(c.stage_counts.at("strip/documents_changed"), 2u);
  EXPECT_EQ(c.documents, 0u);
  EXPECT_TRUE(c.reconciles());
}

TEST(RunCounts, NonReconcilingJsonIsRejected) {
  RunCounts c = sample_counts();
  c.documents = 99;  // one record unaccounted for
  auto parsed = RunCounts::parse_json(to_json(c, false));
  ASSERT_FALSE(parsed.is_ok());
  EXPECT_THAT(parsed.status().message(), HasSubstr("reconcile"));
}

TEST(RunCounts, BadJsonIsRejected) {
  const std::string good = to_json(sample_counts(), false);
  ASSERT_TRUE(RunCounts::parse_json(good).is_ok());
  const std::vector<std::string> bad_inputs = {
      std::string(""),
      std::string("{"),
      std::string("[]"),
      std::string("not json"),
      good.substr(0, good.size() - 1),
      // A missing number.
      R"({"kept":0,"dropped_by_reason":{},"errors_by_kind":{},"blank_lines":0,"input_bytes":0,"output_bytes":0})",
      // A missing map.
      R"({"documents":0,"kept":0,"errors_by_kind":{},"blank_lines":0,"input_bytes":0,"output_bytes":0})",
      // A string where a count belongs.
      R"({"documents":1,"kept":0,"dropped_by_reason":{"a/b":"1"},"errors_by_kind":{},"blank_lines":0,"input_bytes":0,"output_bytes":0})",
      // A negative count.
      R"({"documents":-1,"kept":0,"dropped_by_reason":{},"errors_by_kind":{},"blank_lines":0,"input_bytes":0,"output_bytes":0})",
  };
  for (const std::string& bad : bad_inputs) {
    auto parsed = RunCounts::parse_json(bad);
    EXPECT_FALSE(parsed.is_ok()) << bad;
    if (!parsed.is_ok()) {
      EXPECT_FALSE(parsed.status().message().empty());
    }
  }
}

}  // namespace
}  // namespace winnow
