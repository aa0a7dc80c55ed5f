// A large Parquet file read as several shards, one per range of row groups (io/parquet_ranges.h),
// end to end through the `winnow` binary. The reference is the same run with the file whole
// (input.parquet_split_mb: 0): the ranges' kept, rejected and error files, concatenated in name
// order, are that run's files byte for byte, dedup writes the same duplicates tables
// (duplicates in different ranges included), and DuckDB's footer says what the ranges must be.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "duckdb_sql.h"
#include "pipeline/pipeline_fixture.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// 12,288 rows in row groups of 2,048 (six ranges when each row group is one): rows i and
// i + 4096 share a text (exact duplicates, in different ranges), rows from 8192 on repeat row
// i - 8192's text with one word more (near duplicates), rows 5000 and 10001 have no text
// (errors), and every fifth text is short (dropped by text_length).
std::string table() {
  return "SELECT i AS id, CASE WHEN i IN (5000, 10001) THEN NULL ELSE 'document ' || (i % 4096) "
         "|| ' ' || repeat('w' || (i % 4096) || ' ', CASE WHEN i % 5 = 0 THEN 1 ELSE 40 END) || "
         "CASE WHEN i >= 8192 THEN 'tail' ELSE '' END END AS text, i % 7 AS n FROM range(12288) "
         "t(i)";
}

constexpr char kDedup[] =
    "  - stage: text_length\n    min_chars: 60\n"
    "  - stage: exact_dedup\n"
    "  - stage: fuzzy_dedup\n";

class ParquetSplit : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.file("in"));
    db_.exec("COPY (" + table() + ") TO '" + input() + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
  }
  std::string input() const { return dir_.file("in/a.parquet"); }
  // Runs `stages` with `split_mb` into OUT; returns winnow's exit code, its output in `log`.
  int run(const std::string& out, const std::string& split_mb, const std::string& stages,
          const std::string& options = "-t 2", std::string* log = nullptr) {
    std::string pipeline =
        pipeline_file(dir_, "input: {format: parquet, parquet_split_mb: " + split_mb +
                                "}\noutput: {format: jsonl}\non_error: skip\nstages:\n" + stages);
    std::string local;
    return winnow("run " + pipeline + " -q " + options + " -i " + input() + " -o " + dir_.file(out),
                  log ? log : &local);
  }
  // The row counts of the file's row groups, as DuckDB reads them from the footer.
  std::vector<std::string> row_group_rows() {
    std::vector<std::string> rows;
    for (const auto& row :
         db_.rows("SELECT row_group_id, max(row_group_num_rows) FROM parquet_metadata('" + input() +
                  "') GROUP BY 1 ORDER BY 1")) {
      rows.push_back(row[1]);
    }
    return rows;
  }
  // The files `folder` (under OUT) holds for each range, concatenated in name order.
  static std::string ranges_of(const std::string& out, const std::string& folder, size_t ranges,
                               const std::string& ext = ".jsonl") {
    std::string all;
    for (size_t r = 0; r < ranges; ++r) {
      std::string path = out + "/" + folder + fmt::format("a-r{:05}", r) + ext;
      if (fs::exists(path)) all += read_file(path);
    }
    return all;
  }
  // The ids a dedup stage removed (its duplicates table's rows that are not survivors).
  static std::set<std::string> removed_ids(const std::string& out, const std::string& step) {
    std::set<std::string> ids;
    simdjson::dom::parser parser;
    std::string text = read_file(out + "/global/" + step + "/duplicates.jsonl");
    for (simdjson::dom::element row : parser.parse_many(text)) {
      bool kept = false;
      simdjson::dom::element survivor;
      if (!row["survivor"].get(survivor)) kept = survivor.get_bool().value();
      if (!kept) ids.insert(simdjson::to_string(row["id"]));
    }
    return ids;
  }

  TempDir dir_;
  DuckDbSql db_;
};

TEST_F(ParquetSplit, EveryRowGroupARangeNamedInFileOrder) {
  std::vector<std::string> groups = row_group_rows();
  ASSERT_EQ(groups.size(), 6u);
  std::string log;
  // 0.00001 MiB: any row group is more than that, so each one is a range.
  ASSERT_EQ(run("split", "0.00001", "  - stage: text_length\n    min_chars: 60\n", "-t 2", &log), 0)
      << log;
  const std::string out = dir_.file("split");
  for (size_t r = 0; r < groups.size(); ++r) {
    SCOPED_TRACE(r);
    std::string name = fmt::format("a-r{:05}", r);
    EXPECT_TRUE(fs::exists(out + "/_done/" + name + ".json"));
    // Kept + rejected + errors of each range: its row group's rows, as DuckDB counts them.
    std::string rows = db_.value(
        "SELECT (SELECT count(*) FROM read_json_auto('" + out + "/" + name +
        ".jsonl')) + "
        "(SELECT count(*) FROM read_json_auto('" +
        out + "/rejected/" + name + ".jsonl')) + " +
        (fs::exists(out + "/errors/" + name + ".jsonl")
             ? "(SELECT count(*) FROM read_json_auto('" + out + "/errors/" + name + ".jsonl'))"
             : std::string("0")));
    EXPECT_EQ(rows, groups[r]);
  }
  EXPECT_FALSE(fs::exists(out + fmt::format("/a-r{:05}.jsonl", groups.size())));
  EXPECT_FALSE(fs::exists(out + "/a.jsonl"));
  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(out + "/stats.json");
  EXPECT_EQ(uint64_t(stats["input_files"]), 1u);
  EXPECT_EQ(uint64_t(stats["input_shards"]), groups.size());
  EXPECT_EQ(stats_total(out + "/stats.json", "documents"), 12288u);

  // Three row groups' worth of bytes a range, from DuckDB's figures: fewer, larger ranges, the
  // last one taking the remainder.
  std::string bytes = db_.value(
      "SELECT max(b) FROM (SELECT sum(total_compressed_size) AS b FROM "
      "parquet_metadata('" +
      input() + "') GROUP BY row_group_id)");
  double three_groups_mb = 2.5 * std::stod(bytes) / (1 << 20);
  ASSERT_EQ(run("coarse", fmt::format("{:.9f}", three_groups_mb),
                "  - stage: text_length\n    min_chars: 60\n"),
            0);
  size_t coarse = 0;
  while (fs::exists(dir_.file("coarse") + fmt::format("/a-r{:05}.jsonl", coarse))) ++coarse;
  EXPECT_GE(coarse, 2u);
  EXPECT_LT(coarse, groups.size());
  EXPECT_EQ(stats_total(dir_.file("coarse/stats.json"), "documents"), 12288u);
}

TEST_F(ParquetSplit, SameRecordsAndDedupDecisionsAsTheWholeFile) {
  const size_t ranges = row_group_rows().size();
  ASSERT_EQ(ranges, 6u);
  std::string log;
  ASSERT_EQ(run("whole", "0", kDedup, "-t 2", &log), 0) << log;
  const std::string whole = dir_.file("whole");
  ASSERT_TRUE(fs::exists(whole + "/a.jsonl"));
  const std::string whole_kept = read_file(whole + "/a.jsonl");
  const std::string whole_rejected = read_file(whole + "/rejected/a.jsonl");
  const std::string whole_errors = read_file(whole + "/errors/a.jsonl");
  // The stages did something: short texts, exact and near duplicates, two null texts.
  EXPECT_THAT(whole_rejected, HasSubstr("exact_dedup"));
  EXPECT_THAT(whole_rejected, HasSubstr("fuzzy_dedup"));
  EXPECT_THAT(whole_rejected, HasSubstr("text_length"));
  EXPECT_EQ(stats_total(whole + "/stats.json", "errors"), 2u);

  std::map<std::string, std::string> reference;
  for (const char* options : {"-t 1 --batch-size 1000", "-t 2 --batch-size 7",
                              "-t 2 --batch-size 1000", "-t 1 --batch-size 7"}) {
    SCOPED_TRACE(options);
    const std::string out = dir_.file("split");
    fs::remove_all(out);
    ASSERT_EQ(run("split", "0.00001", kDedup, options, &log), 0) << log;
    EXPECT_EQ(ranges_of(out, "", ranges), whole_kept);
    EXPECT_EQ(ranges_of(out, "rejected/", ranges), whole_rejected);
    // An error names the file's row: 5001 and 10002, 1-based, in the ranges that hold them
    // (row groups of 2,048 rows).
    EXPECT_EQ(ranges_of(out, "errors/", ranges), whole_errors);
    EXPECT_THAT(read_file(out + "/errors/a-r00002.jsonl"), HasSubstr("\"line\":5001,"));
    EXPECT_THAT(read_file(out + "/errors/a-r00004.jsonl"), HasSubstr("\"line\":10002,"));
    EXPECT_THAT(read_file(out + "/errors/a-r00002.jsonl"), HasSubstr(input()));
    // Document keys are the file's (its place and rows), so the duplicates tables, their
    // components and survivors included, are the whole file's byte for byte.
    for (const char* step : {"exact_dedup", "fuzzy_dedup"}) {
      std::set<std::string> removed = removed_ids(out, step);
      EXPECT_FALSE(removed.empty()) << step;
      EXPECT_EQ(removed, removed_ids(whole, step)) << step;
      const std::string table = std::string("/global/") + step + "/duplicates.jsonl";
      EXPECT_EQ(read_file(out + table), read_file(whole + table)) << step;
    }
    // Byte-identical whatever the threads and batch size.
    auto tree = read_output_tree(out);
    if (reference.empty()) {
      reference = tree;
    } else {
      EXPECT_TRUE(tree == reference);
    }
  }
  // Groups of duplicates span ranges: their rows lie in different row groups of 2,048 rows.
  simdjson::dom::parser parser;
  std::map<uint64_t, std::set<uint64_t>> groups_of_component;
  std::string table = read_file(dir_.file("split/global/exact_dedup/duplicates.jsonl"));
  for (simdjson::dom::element row : parser.parse_many(table)) {
    groups_of_component[uint64_t(row["component"])].insert(uint64_t(row["row"]) / 2048);
  }
  ASSERT_FALSE(groups_of_component.empty());
  for (const auto& [component, groups] : groups_of_component) {
    EXPECT_GT(groups.size(), 1u) << component;
  }
}

TEST_F(ParquetSplit, ResumeRedoesOnlyTheRangeNotComplete) {
  const std::string stages = "  - stage: text_length\n    min_chars: 60\n";
  ASSERT_EQ(run("out", "0.00001", stages), 0);
  const std::string out = dir_.file("out");
  const auto complete = read_output_tree(out);
  const size_t ranges = row_group_rows().size();
  // As if the run had died while writing range 3: no marker, no kept file.
  fs::remove(out + "/_done/a-r00003.json");
  fs::remove(out + "/a-r00003.jsonl");
  std::string log;
  ASSERT_EQ(run("out", "0.00001", stages, "-t 2", &log), 0) << log;
  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(out + "/stats.json");
  EXPECT_EQ(uint64_t(stats["input_files_skipped_complete"]), ranges - 1);
  EXPECT_EQ(uint64_t(stats["input_files_completed"]), 1u);
  EXPECT_EQ(stats_total(out + "/stats.json", "documents"), 12288u);
  EXPECT_TRUE(read_output_tree(out) == complete);

  // Another split is another input set: the run refuses to mix its outputs with these.
  EXPECT_NE(run("out", "0", stages, "-t 2", &log), 0);
  EXPECT_THAT(log, HasSubstr("different pipeline, input set"));
}

// A file whose footer cannot be read stays one shard: one error record names it.
TEST_F(ParquetSplit, ATruncatedFileIsOneErrorNotOnePerRange) {
  std::string bytes = read_file(input());
  {
    std::ofstream cut(dir_.file("cut.parquet"), std::ios::binary);
    cut.write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  }
  std::string pipeline = pipeline_file(
      dir_, "input: {format: parquet, parquet_split_mb: 0.00001}\noutput: {format: jsonl}\n");
  std::string log;
  ASSERT_EQ(winnow("run " + pipeline + " -q --on-error skip -i " + dir_.file("cut.parquet") +
                       " -o " + dir_.file("out"),
                   &log),
            0)
      << log;
  EXPECT_EQ(stats_total(dir_.file("out/stats.json"), "errors"), 1u);
  std::string errors = read_file(dir_.file("out/errors/cut.jsonl"));
  EXPECT_THAT(errors, HasSubstr("truncated_parquet"));
  EXPECT_THAT(errors, HasSubstr(dir_.file("cut.parquet")));
}

}  // namespace
}  // namespace winnow::testing
