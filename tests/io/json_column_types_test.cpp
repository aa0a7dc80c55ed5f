// JsonColumnTypes: the types JSON records get as Parquet columns. DuckDB checks that every type
// it names is a type DuckDB parses, and that the records read back through them unchanged.
#include "io/json_column_types.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "duckdb_sql.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

std::map<std::string, std::string> types_of(const std::vector<std::string>& records) {
  JsonColumnTypes types;
  for (const std::string& r : records) EXPECT_TRUE(types.observe(r).is_ok()) << r;
  std::map<std::string, std::string> out;
  for (const auto& c : types.columns()) out[c.name] = c.type;
  return out;
}

TEST(JsonColumnTypes, ScalarsKeepTheirKindAndStringsStayStrings) {
  auto types = types_of({
      R"({"s": "2024-01-02", "t": "2024-01-02T10:00:00Z", "i": 1, "d": 2.5, "b": true,
          "mixed_numbers": 1, "n": null, "big": 1})",
      R"({"s": "12:00:00", "t": "x", "i": -7, "d": 3, "b": false, "mixed_numbers": 0.5,
          "n": null, "big": 18446744073709551615})",
  });
  EXPECT_EQ(types["s"], "VARCHAR");  // never guessed to be a DATE or TIME
  EXPECT_EQ(types["t"], "VARCHAR");
  EXPECT_EQ(types["i"], "BIGINT");
  EXPECT_EQ(types["d"], "DOUBLE");
  EXPECT_EQ(types["mixed_numbers"], "DOUBLE");
  EXPECT_EQ(types["b"], "BOOLEAN");
  EXPECT_EQ(types["n"], "JSON");    // only nulls: nothing to go on
  EXPECT_EQ(types["big"], "JSON");  // past 64 bits: exact only as JSON text
}

TEST(JsonColumnTypes, FieldsHoldingNumbersPastWhatSimdjsonReadsAreJson) {
  auto types = types_of({
      R"({"big": 18446744073709551616, "deep": {"x": [1e400]}, "other": 1, "s": "1e400"})",
      R"({"big": 1, "deep": {"x": [2]}, "other": 2, "s": "x"})",
  });
  EXPECT_EQ(types["big"], "JSON");
  EXPECT_EQ(types["deep"], "JSON");
  EXPECT_EQ(types["other"], "BIGINT");  // the rest of the record is read as usual
  EXPECT_EQ(types["s"], "VARCHAR");
}

TEST(JsonColumnTypes, DifferentKindsOrShapesAreJson) {
  auto types = types_of({
      R"({"kinds": "a", "shape": {"a": 1}, "same": {"a": 1, "b": [1]}, "list": [1, 2],
          "mixed_list": [1, "a"], "empty": {}, "late": null})",
      R"({"kinds": 3, "shape": {"b": 1}, "same": {"b": [], "a": null}, "list": [],
          "mixed_list": [], "empty": {}, "late": [[true]]})",
  });
  EXPECT_EQ(types["kinds"], "JSON");
  EXPECT_EQ(types["shape"], "JSON");  // other keys: a STRUCT would invent nulls
  EXPECT_EQ(types["same"], R"(STRUCT("a" BIGINT, "b" BIGINT[]))");
  EXPECT_EQ(types["list"], "BIGINT[]");
  EXPECT_EQ(types["mixed_list"], "JSON[]");  // a list still, of JSON values
  EXPECT_EQ(types["empty"], "JSON");
  EXPECT_EQ(types["late"], "BOOLEAN[][]");
}

TEST(JsonColumnTypes, ColumnsComeInFirstSeenOrderAndMissingFieldsAreNull) {
  JsonColumnTypes types;
  ASSERT_TRUE(types.observe(R"({"b": 1, "a": "x"})").is_ok());
  ASSERT_TRUE(types.observe(R"({"c": true, "a": "y"})").is_ok());
  auto columns = types.columns();
  ASSERT_EQ(columns.size(), 3u);
  EXPECT_EQ(columns[0].name, "b");
  EXPECT_EQ(columns[1].name, "a");
  EXPECT_EQ(columns[2].name, "c");
  EXPECT_FALSE(types.observe("[1, 2]").is_ok());
  EXPECT_FALSE(types.observe("{not json").is_ok());
}

TEST(JsonColumnTypes, DuckDbReadsTheRecordsBackThroughTheTypesUnchanged) {
  std::vector<std::string> records = {
      R"({"id": 1, "text": "a", "meta": {"url": "http://x", "len": 3, "tags": ["p", "q"]},)"
      R"( "score": 0.25, "weird \"key\"": {"it's": 1}, "any": {"k": 1}})",
      R"({"id": 2, "text": "b", "meta": {"tags": [], "url": null, "len": 4},)"
      R"( "score": 1, "weird \"key\"": {"it's": null}, "any": [1, "two"]})",
  };
  TempDir dir;
  std::string jsonl;
  for (const std::string& r : records) jsonl += r + "\n";
  write_file(dir.file("r.jsonl"), jsonl);
  JsonColumnTypes types;
  for (const std::string& r : records) ASSERT_TRUE(types.observe(r).is_ok());
  auto quoted = [](const std::string& s) {
    std::string out = "'";
    for (char ch : s) out += ch == '\'' ? std::string("''") : std::string(1, ch);
    return out + "'";
  };
  std::string columns;
  for (const auto& c : types.columns()) {
    columns += (columns.empty() ? "" : ", ") + quoted(c.name) + ": " + quoted(c.type);
  }
  DuckDbSql db;
  // Each record through the types, back to JSON: the same values (fields in column order).
  auto rows = db.rows("SELECT to_json(t)::VARCHAR FROM read_json('" + dir.file("r.jsonl") +
                      "', format = 'newline_delimited', columns = {" + columns + "}) t");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][0], R"({"id":1,"text":"a","meta":{"url":"http://x","len":3,"tags":["p","q"]},)"
                        R"("score":0.25,"weird \"key\"":{"it's":1},"any":{"k":1}})");
  EXPECT_EQ(rows[1][0], R"({"id":2,"text":"b","meta":{"url":null,"len":4,"tags":[]},)"
                        R"("score":1.0,"weird \"key\"":{"it's":null},"any":[1,"two"]})");
}

}  // namespace
}  // namespace winnow::testing
