// Valid JSON is never an error: numbers past 64 bits or a double's range (which simdjson
// refuses) keep their text, through the `winnow` binary. JSON Lines output writes such records
// back unchanged; Parquet output makes their fields DuckDB's JSON type, holding the number's
// text, as DuckDB reads it back. A malformed number is still an error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "duckdb_sql.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

constexpr const char* kWide[] = {
    R"({"id": 1, "text": "one", "big": 18446744073709551616, "nested": {"x": [-9223372036854775809, 1e400]}})",
    R"({"id": 2, "text": "two", "big": 5, "nested": {"x": [1]}})",
    R"({"id": 123456789012345678901234567890, "text": "three", "big": -1E+999})",
};
constexpr const char* kMalformed = R"({"id": 4, "text": "four", "big": 01})";

// A stage that reads such a field sees the number's text: `select` keeps the first and third
// records by it, and they are written back byte for byte.
TEST(JsonlWideNumbers, RecordsWithWideNumbersAreKeptAsWritten) {
  TempDir dir;
  std::string input = dir.file("in/wide.jsonl");
  fs::create_directories(dir.file("in"));
  std::string lines;
  for (const char* line : kWide) lines += std::string(line) + "\n";
  write_file(input, lines + kMalformed + "\n");
  std::string pipeline = pipeline_file(dir,
                                       "on_error: skip\nstages:\n  - stage: select\n"
                                       "    field: big\n"
                                       "    in: [\"18446744073709551616\", \"-1E+999\"]\n");
  std::string out;
  ASSERT_EQ(
      winnow("run " + pipeline + " -q --output-format jsonl -i " + input + " -o " + dir.file("out"),
             &out),
      0)
      << out;
  EXPECT_EQ(read_file(dir.file("out/wide.jsonl")),
            std::string(kWide[0]) + "\n" + std::string(kWide[2]) + "\n");
  EXPECT_EQ(stats_total(dir.file("out/stats.json"), "kept"), 2u);
  EXPECT_EQ(stats_total(dir.file("out/stats.json"), "dropped"), 1u);
  EXPECT_EQ(stats_total(dir.file("out/stats.json"), "errors"), 1u);
  std::string errors = read_file(dir.file("out/errors/wide.jsonl"));
  EXPECT_THAT(errors, HasSubstr("malformed_json"));
  EXPECT_THAT(errors, HasSubstr("wide.jsonl:4"));
}

TEST(JsonlWideNumbers, ParquetOutputHoldsThemAsJsonText) {
  TempDir dir;
  DuckDbSql db;
  std::string input = dir.file("in/wide.jsonl");
  fs::create_directories(dir.file("in"));
  std::string lines;
  for (const char* line : kWide) lines += std::string(line) + "\n";
  write_file(input, lines);
  std::string pipeline = pipeline_file(dir, "stages: []\n");
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline + " -q --output-format parquet -i " + input + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  std::string parquet = read_parquet(dir.file("out/wide.parquet"));
  EXPECT_THAT(db.columns(parquet),
              ::testing::ElementsAre("id JSON", "text VARCHAR", "big JSON", "nested JSON"));
  EXPECT_EQ(db.value("SELECT string_agg(concat_ws('/', id, big, nested), ' ' ORDER BY text) FROM " +
                     parquet),
            "1/18446744073709551616/{\"x\":[-9223372036854775809,1e400]} "
            "123456789012345678901234567890/-1E+999 2/5/{\"x\":[1]}");
}

}  // namespace
}  // namespace winnow::testing
