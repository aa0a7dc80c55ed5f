// Splitting Parquet files into ranges of row groups: the rule on sizes given by hand, the
// ranges of a file DuckDB wrote (its footer as the reference), and ParquetReader on a range
// against DuckDB's own rows of that range (by file_row_number), projected or not.
#include "io/parquet_ranges.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "duckdb_sql.h"
#include "io/damaged_parquet.h"
#include "io/input_reader.h"
#include "io/parquet_reader.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

std::vector<std::pair<uint64_t, uint64_t>> bounds(const std::vector<RowRange>& ranges) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i < ranges.size(); ++i) {
    EXPECT_EQ(ranges[i].index, i);
    out.emplace_back(ranges[i].begin, ranges[i].end);
  }
  return out;
}

using Bounds = std::vector<std::pair<uint64_t, uint64_t>>;

TEST(RowGroupRanges, RangesHoldAtLeastTheSplitSizeAndTheLastShortOneJoinsItsNeighbour) {
  // Row groups of 10 rows; bytes 40, 70, 30, 50, 20.
  std::vector<RowGroupSize> groups = {{10, 40}, {10, 70}, {10, 30}, {10, 50}, {10, 20}};
  // 100 bytes: [40 + 70], [30 + 50 + 20] (exactly 100: a range of its own).
  EXPECT_EQ(bounds(row_group_ranges(groups, 100)), (Bounds{{0, 20}, {20, 50}}));
  // 60 bytes: [40 + 70], [30 + 50], [20] is short and joins the one before.
  EXPECT_EQ(bounds(row_group_ranges(groups, 60)), (Bounds{{0, 20}, {20, 50}}));
  // 1 byte: every row group alone.
  EXPECT_EQ(bounds(row_group_ranges(groups, 1)),
            (Bounds{{0, 10}, {10, 20}, {20, 30}, {30, 40}, {40, 50}}));
  // Less than two ranges' worth, no split, or nothing at all: the file stays whole.
  EXPECT_TRUE(row_group_ranges(groups, 120).empty());
  EXPECT_TRUE(row_group_ranges(groups, 0).empty());
  EXPECT_TRUE(row_group_ranges({}, 1).empty());
  EXPECT_TRUE(row_group_ranges({{10, 500}}, 1).empty());
}

class ParquetRanges : public ::testing::Test {
 protected:
  void SetUp() override {
    db_.exec(
        "COPY (SELECT i AS id, 'text ' || i AS text, i * 0.5 AS x, [i, i] AS pair FROM "
        "range(5000) t(i)) TO '" +
        file() + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
  }
  std::string file() const { return dir_.file("a.parquet"); }

  TempDir dir_;
  DuckDbSql db_;
};

TEST_F(ParquetRanges, AFileIsCutAtItsRowGroupsAsItsFooterSays) {
  auto groups = db_.rows(
      "SELECT row_group_id, max(row_group_num_rows), "
      "sum(total_compressed_size) FROM parquet_metadata('" +
      file() + "') GROUP BY 1 ORDER BY 1");
  ASSERT_EQ(groups.size(), 3u);  // DuckDB writes row groups of whole 2,048-row chunks
  InputFile whole{file(), std::filesystem::file_size(file())};
  auto split = split_parquet_inputs(
      {{"x.jsonl", 7}, whole, {"z.jsonl", 9}},
      [](const InputFile& f) { return f.path.ends_with(".parquet"); }, "text", 1);
  ASSERT_TRUE(split.is_ok()) << split.status().message();
  ASSERT_EQ(split->size(), 5u);
  EXPECT_EQ((*split)[0].path, "x.jsonl");
  EXPECT_FALSE((*split)[0].rows);
  EXPECT_EQ((*split)[4].path, "z.jsonl");
  uint64_t row = 0;
  for (size_t r = 0; r < 3; ++r) {
    const InputFile& range = (*split)[r + 1];
    EXPECT_EQ(range.path, file());
    ASSERT_TRUE(range.rows);
    EXPECT_EQ(range.rows->index, r);
    EXPECT_EQ(range.rows->begin, row);
    row += std::stoull(groups[r][1]);
    EXPECT_EQ(range.rows->end, row);
    EXPECT_EQ(range.size, std::stoull(groups[r][2]));
    EXPECT_EQ(shard_stem(range), "a-r0000" + std::to_string(r));
  }
  // 0: never split; a file without the text column, or not Parquet at all, stays whole.
  auto is_parquet = [](const InputFile&) { return true; };
  EXPECT_EQ(split_parquet_inputs({whole}, is_parquet, "text", 0)->size(), 1u);
  EXPECT_EQ(split_parquet_inputs({whole}, is_parquet, "body", 1)->size(), 1u);
  EXPECT_EQ(split_parquet_inputs({whole}, is_parquet, "x", 1)->size(), 1u);  // not a string
  write_file(dir_.file("junk.parquet"), "PAR1 not really");
  auto junk = split_parquet_inputs({{dir_.file("junk.parquet"), 100}}, is_parquet, "text", 1);
  ASSERT_EQ(junk->size(), 1u);
  EXPECT_FALSE((*junk)[0].rows);
}

// A range read alone: DuckDB's rows for it, numbered as in the file, projected when asked.
TEST_F(ParquetRanges, AReaderOnARangeReadsItsRowsWithTheFileNumbers) {
  for (bool projected : {false, true}) {
    SCOPED_TRACE(projected);
    ParquetOptions options{"text", 300, 8 << 20};
    options.rows = RowRange{2000, 4000, 2};
    options.range_bytes = 12345;
    if (projected) options.columns = std::vector<std::string>{"id"};
    ParquetReader reader(file(), 9, options);
    std::vector<std::string> records;
    std::vector<uint64_t> lines;
    while (auto batch = reader.next()) {
      EXPECT_EQ(batch->shard, 9u);
      EXPECT_TRUE(batch->errors.empty());
      for (const RawLine& line : batch->raw_lines) {
        records.emplace_back(batch->raw_bytes().substr(line.offset, line.length));
        lines.push_back(line.line_number);
      }
    }
    EXPECT_EQ(reader.compressed_bytes_read(), 12345u);
    // x is a DECIMAL wider than 15 digits, which the reader writes as its exact text.
    std::string members = projected ? "'id', id, 'text', text"
                                    : "'id', id, 'text', text, 'x', x::VARCHAR, 'pair', pair";
    auto expected = db_.rows("SELECT json_object(" + members +
                             ")::VARCHAR, file_row_number FROM "
                             "read_parquet('" +
                             file() +
                             "', file_row_number = true) WHERE "
                             "file_row_number BETWEEN 2000 AND 3999 ORDER BY file_row_number");
    ASSERT_EQ(records.size(), expected.size());
    ASSERT_EQ(records.size(), 2000u);
    for (size_t i = 0; i < records.size(); ++i) {
      ASSERT_EQ(records[i], expected[i][0]) << i;
      ASSERT_EQ(lines[i], std::stoull(expected[i][1]) + 1) << i;  // 1-based file row
    }
  }
}

// Damaged pages in one range: that range ends with one corrupt_parquet error naming the file's
// row and row group where reading stopped; the other ranges read every row.
TEST(ParquetRangesDamage, OnlyTheDamagedRangeLosesRowsAndItsErrorNamesTheFileRow) {
  TempDir dir;
  DuckDbSql db;
  std::string damaged = write_damaged_parquet(db, dir);
  auto ranges = split_parquet_inputs(
      {{damaged, std::filesystem::file_size(damaged)}}, [](const InputFile&) { return true; },
      "text", 1);
  ASSERT_TRUE(ranges.is_ok());
  ASSERT_EQ(ranges->size(), 5u);  // the footer is intact: one range per row group
  size_t damaged_ranges = 0;
  for (const InputFile& range : *ranges) {
    SCOPED_TRACE(range.rows->index);
    InputOptions options;
    options.format = InputFormat::kParquet;
    InputReader reader(range, range.rows->index, options);
    uint64_t rows = 0;
    std::vector<InputErrorRecord> errors;
    while (auto batch = reader.next()) {
      rows += batch->raw_lines.size();
      for (const RawLine& line : batch->raw_lines) {
        ASSERT_EQ(line.line_number, range.rows->begin + rows - batch->raw_lines.size() +
                                        (&line - batch->raw_lines.data()) + 1);
      }
      for (InputErrorRecord& e : batch->errors) errors.push_back(std::move(e));
    }
    const uint64_t size = range.rows->end - range.rows->begin;
    if (errors.empty()) {
      EXPECT_EQ(rows, size);
      continue;
    }
    ++damaged_ranges;
    EXPECT_LT(rows, size);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(input_error_name(errors[0].kind), "corrupt_parquet");
    const uint64_t next = range.rows->begin + rows;  // the file's first row not read, 0-based
    EXPECT_EQ(errors[0].line, next + 1);
    EXPECT_THAT(errors[0].message,
                ::testing::HasSubstr(fmt::format(
                    "the rows from row {} (row group index {} of 5) on are lost up to row {}",
                    next + 1, range.rows->index, range.rows->end)));
  }
  EXPECT_EQ(damaged_ranges, 1u);
}

}  // namespace
}  // namespace winnow::testing
