// Parquet input end to end through the `winnow` binary: DuckDB writes the input and reads
// winnow's JSONL output back with the input's schema, so the expected values are DuckDB's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "duckdb_sql.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

void expect_reconciled(const std::string& stats) {
  EXPECT_EQ(
      stats_total(stats, "documents"),
      stats_total(stats, "kept") + stats_total(stats, "dropped") + stats_total(stats, "errors"));
}

// Every type the reader maps, nulls included; `ids` rows from `first`.
std::string table(int first, int ids) {
  return "SELECT i AS id, 'document ' || i || ' ' || repeat('w ', (i % 40)::INTEGER) AS text, "
         "CASE WHEN i % 7 = 0 THEN NULL ELSE i * 3 END AS n, i / 4.0 AS x, i % 2 = 0 AS even, "
         "TIMESTAMP '2025-06-01 12:00:00' + INTERVAL (i) MINUTE AS at, "
         "CASE WHEN i % 5 = 0 THEN NULL ELSE [i, i + 1] END AS pair, "
         "{'a': i, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE 'b' || i END} AS meta "
         "FROM range(" +
         std::to_string(first) + ", " + std::to_string(first + ids) + ") t(i)";
}

TEST(ParquetInput, FoldersGlobsAndNamedFilesReadBackAsDuckDbWroteThem) {
  TempDir dir;
  DuckDbSql db;
  fs::create_directories(dir.file("in/sub"));
  db.exec("COPY (" + table(0, 2500) + ") TO '" + dir.file("in/a.parquet") +
          "' (FORMAT parquet, ROW_GROUP_SIZE 700)");
  db.exec("COPY (" + table(2500, 300) + ") TO '" + dir.file("in/sub/b.parquet") +
          "' (FORMAT parquet, COMPRESSION snappy)");
  // A Parquet file whose name says nothing: auto-detected by its first bytes.
  db.exec("COPY (" + table(2800, 200) + ") TO '" + dir.file("part-0") + "' (FORMAT parquet)");
  std::string pipeline = pipeline_file(dir, "output: {format: jsonl}\n");
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline + " -q -i " + dir.file("in") + " -i " + dir.file("part-0") +
                       " -o " + dir.file("out"),
                   &out),
            0)
      << out;
  std::string stats = dir.file("out/stats.json");
  EXPECT_EQ(stats_total(stats, "documents"), 3000u);
  EXPECT_EQ(stats_total(stats, "kept"), 3000u);
  expect_reconciled(stats);

  std::string schema = db.columns_literal(read_parquet(dir.file("in/a.parquet")));
  std::string back = "SELECT * FROM read_json(['" + dir.file("out/a.jsonl") + "', '" +
                     dir.file("out/b.jsonl") + "', '" + dir.file("out/part-0.jsonl") +
                     "'], format = 'newline_delimited', columns = " + schema + ")";
  std::string original = "SELECT * FROM read_parquet(['" + dir.file("in/a.parquet") + "', '" +
                         dir.file("in/sub/b.parquet") + "', '" + dir.file("part-0") + "'])";
  EXPECT_EQ(db.value("SELECT count(*) FROM (" + back + ")"), "3000");
  EXPECT_EQ(db.value("SELECT count(*) FROM ((" + original + ") EXCEPT ALL (" + back + "))"), "0");

  // A glob picks the same file.
  ASSERT_EQ(
      winnow("run " + pipeline + " -q -i '" + dir.file("in/*.parquet") + "' -o " + dir.file("glob"),
             &out),
      0)
      << out;
  EXPECT_EQ(read_file(dir.file("glob/a.jsonl")), read_file(dir.file("out/a.jsonl")));
}

TEST(ParquetInput, SameOutputForAnyThreadCountAndBatchSize) {
  TempDir dir;
  DuckDbSql db;
  db.exec("COPY (" + table(0, 1500) + ") TO '" + dir.file("a.parquet") +
          "' (FORMAT parquet, ROW_GROUP_SIZE 300)");
  db.exec("COPY (" + table(1500, 400) + ") TO '" + dir.file("b.parquet") + "' (FORMAT parquet)");
  // A filter, so that kept and rejected are both written.
  std::string pipeline = pipeline_file(dir,
                                       "input: {format: parquet}\noutput: {format: jsonl}\n"
                                       "stages:\n  - stage: text_length\n    min_chars: 40\n");
  std::string reference;
  for (const char* options : {"--threads 1 --batch-size 1000", "--threads 2 --batch-size 1",
                              "--threads 2 --batch-size 7", "--threads 1 --batch-size 7"}) {
    SCOPED_TRACE(options);
    std::string out_dir = dir.file("out");
    std::string out;
    ASSERT_EQ(winnow("run " + pipeline + " -q " + options + " -i " + dir.file("a.parquet") +
                         " -i " + dir.file("b.parquet") + " -o " + out_dir,
                     &out),
              0)
        << out;
    std::string result = read_file(out_dir + "/a.jsonl") + read_file(out_dir + "/b.jsonl") +
                         read_file(out_dir + "/rejected/a.jsonl") +
                         read_file(out_dir + "/rejected/b.jsonl");
    expect_reconciled(out_dir + "/stats.json");
    EXPECT_GT(stats_total(out_dir + "/stats.json", "dropped"), 0u);
    if (reference.empty()) {
      reference = result;
    } else {
      EXPECT_EQ(result, reference);
    }
    fs::remove_all(out_dir);
  }
}

// Hive-partitioned folders (key=value in the path): DuckDB adds each key as a column, typed as
// it would read them itself.
TEST(ParquetInput, HivePartitionFoldersBecomeColumns) {
  TempDir dir;
  DuckDbSql db;
  fs::create_directories(dir.file("data/lang=en/year=2024"));
  fs::create_directories(dir.file("data/lang=de/year=2023"));
  db.exec("COPY (" + table(0, 30) + ") TO '" + dir.file("data/lang=en/year=2024/a.parquet") +
          "' (FORMAT parquet)");
  db.exec("COPY (" + table(30, 20) + ") TO '" + dir.file("data/lang=de/year=2023/b.parquet") +
          "' (FORMAT parquet)");
  std::string pipeline = pipeline_file(dir, "output: {format: jsonl}\n");
  std::string out;
  ASSERT_EQ(
      winnow("run " + pipeline + " -q -i " + dir.file("data") + " -o " + dir.file("out"), &out), 0)
      << out;
  std::string original = "SELECT * FROM read_parquet('" + dir.file("data/*/*/*.parquet") +
                         "', hive_partitioning = true)";
  std::string columns;
  for (const auto& row : db.rows("DESCRIBE " + original)) {
    columns += (columns.empty() ? "" : ", ") + ("'" + row[0] + "': '" + row[1] + "'");
  }
  EXPECT_THAT(columns, HasSubstr("'lang': 'VARCHAR', 'year': 'BIGINT'"));
  std::string back = "SELECT * FROM read_json(['" + dir.file("out/a.jsonl") + "', '" +
                     dir.file("out/b.jsonl") + "'], format = 'newline_delimited', columns = {" +
                     columns + "})";
  EXPECT_EQ(db.value("SELECT count(*) FROM (" + back + ") WHERE lang = 'de' AND year = 2023"),
            "20");
  EXPECT_EQ(db.value("SELECT count(*) FROM ((" + original + ") EXCEPT ALL (" + back + "))"), "0");
  EXPECT_EQ(db.value("SELECT count(*) FROM ((" + back + ") EXCEPT ALL (" + original + "))"), "0");
}

struct BadParquet {
  std::string name, kind, message;
  std::string yaml;  // the input section
};

TEST(ParquetInput, EveryBadFileFailsUnderFailAndIsLoggedUnderSkip) {
  TempDir dir;
  DuckDbSql db;
  db.exec("COPY (" + table(0, 50) + ") TO '" + dir.file("good.parquet") + "' (FORMAT parquet)");
  std::string good = read_file(dir.file("good.parquet"));
  write_file(dir.file("not.parquet"), "{\"text\": \"JSON, not Parquet\"}\n");
  write_file(dir.file("cut.parquet"), good.substr(0, good.size() - 100));
  db.exec("COPY (SELECT i AS text FROM range(5) t(i)) TO '" + dir.file("ints.parquet") +
          "' (FORMAT parquet)");
  std::vector<BadParquet> cases = {
      {"not.parquet", "not_parquet", "not a Parquet file", "input: {format: parquet}\n"},
      {"cut.parquet", "truncated_parquet", "truncated Parquet file", ""},
      {"good.parquet", "missing_text", "no 'body' column", "input: {text_field: body}\n"},
      {"ints.parquet", "text_not_string", "column 'text' is BIGINT, not a string", ""},
  };
  for (const BadParquet& bad : cases) {
    SCOPED_TRACE(bad.name);
    std::string pipeline = pipeline_file(dir, bad.yaml + "output: {format: jsonl}\n");
    // The bad file beside a good one; alone where the good file is the bad one (missing_text)
    // or where its columns differ from the good file's, which the run refuses at setup.
    const bool alone = bad.kind == "missing_text" || bad.kind == "text_not_string";
    std::string inputs = " -i " + dir.file(bad.name);
    if (!alone) inputs += " -i " + dir.file("good.parquet");
    std::string stem = bad.name.substr(0, bad.name.rfind(".parquet"));  // the shard's name
    std::string out;
    fs::remove_all(dir.file("fail"));
    EXPECT_EQ(winnow("run " + pipeline + " -q --on-error fail" + inputs + " -o " + dir.file("fail"),
                     &out),
              1)
        << out;
    EXPECT_THAT(out, HasSubstr(dir.file(bad.name)));
    EXPECT_THAT(out, HasSubstr(bad.message));
    EXPECT_FALSE(fs::exists(dir.file("fail/" + stem + ".jsonl")));

    fs::remove_all(dir.file("skip"));
    EXPECT_EQ(winnow("run " + pipeline + " -q --on-error skip" + inputs + " -o " + dir.file("skip"),
                     &out),
              0)
        << out;
    std::string stats = dir.file("skip/stats.json");
    expect_reconciled(stats);
    EXPECT_EQ(stats_total(stats, "errors"), 1u);
    EXPECT_EQ(stats_total(stats, "kept"), alone ? 0u : 50u);
    std::string errors = read_file(dir.file("skip/errors/" + stem + ".jsonl"));
    EXPECT_THAT(errors, HasSubstr("\"error\":\"" + bad.kind + "\""));
    EXPECT_THAT(errors, HasSubstr(bad.message));
  }
}

TEST(ParquetInput, NullTextsAreErrorsNamingTheirRows) {
  TempDir dir;
  DuckDbSql db;
  db.exec(
      "COPY (SELECT i AS id, CASE WHEN i IN (3, 8) THEN NULL ELSE 't' || i END AS text "
      "FROM range(10) t(i)) TO '" +
      dir.file("n.parquet") + "' (FORMAT parquet)");
  std::string pipeline = pipeline_file(dir, "output: {format: jsonl}\n");
  std::string out;
  EXPECT_EQ(
      winnow("run " + pipeline + " -q -i " + dir.file("n.parquet") + " -o " + dir.file("fail"),
             &out),
      1);
  EXPECT_THAT(out, HasSubstr(dir.file("n.parquet") + ":4:"));  // row 3, 1-based
  ASSERT_EQ(winnow("run " + pipeline + " -q --on-error skip -i " + dir.file("n.parquet") + " -o " +
                       dir.file("skip"),
                   &out),
            0)
      << out;
  std::string stats = dir.file("skip/stats.json");
  EXPECT_EQ(stats_total(stats, "documents"), 10u);
  EXPECT_EQ(stats_total(stats, "kept"), 8u);
  EXPECT_EQ(stats_total(stats, "errors"), 2u);
  expect_reconciled(stats);
  std::string errors = read_file(dir.file("skip/errors/n.jsonl"));
  EXPECT_THAT(errors, HasSubstr("\"line\":4,"));
  EXPECT_THAT(errors, HasSubstr("\"line\":9,"));
}

}  // namespace
}  // namespace winnow::testing
