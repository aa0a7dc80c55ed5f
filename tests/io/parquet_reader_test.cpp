// ParquetReader against DuckDB as the reference: DuckDB writes the files (every type the
// reader maps, with nulls), and DuckDB reads the reader's JSON records back with the source's
// own schema; the two tables must be equal row for row.
#include "io/parquet_reader.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "duckdb_sql.h"
#include "io/all_types_table.h"
#include "io/damaged_parquet.h"
#include "io/jsonl_parser.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

struct ReadResult {
  std::vector<std::string> records;
  std::vector<uint64_t> lines;
  std::vector<InputErrorRecord> errors;
  std::vector<size_t> batch_rows;
  bool ended = false;
};

ReadResult read_all(const std::string& path, size_t batch_records, std::string text = "text") {
  ParquetReader reader(path, 3, {std::move(text), batch_records, 8 << 20});
  ReadResult out;
  uint64_t sequence = 0;
  while (auto batch = reader.next()) {
    EXPECT_EQ(batch->shard, 3u);
    EXPECT_EQ(batch->sequence, sequence++);
    if (batch->end_of_shard) {
      EXPECT_TRUE(batch->raw_lines.empty());
      out.ended = true;
      EXPECT_EQ(reader.next(), nullptr);
      break;
    }
    out.batch_rows.push_back(batch->raw_lines.size());
    for (const RawLine& line : batch->raw_lines) {
      out.records.emplace_back(batch->raw_bytes().substr(line.offset, line.length));
      out.lines.push_back(line.line_number);
    }
    for (InputErrorRecord& e : batch->errors) out.errors.push_back(std::move(e));
  }
  return out;
}

TEST(ParquetReader, EveryTypeReadsBackAsDuckDbWroteIt) {
  TempDir dir;
  DuckDbSql db;
  std::string source = all_types_file(dir, db, ", ROW_GROUP_SIZE 1000, COMPRESSION zstd");

  ReadResult read = read_all(source, 1024);
  ASSERT_TRUE(read.ended);
  EXPECT_TRUE(read.errors.empty());
  ASSERT_EQ(read.records.size(), 3000u);
  for (size_t i = 0; i < read.lines.size(); ++i) ASSERT_EQ(read.lines[i], i + 1);

  std::string jsonl;
  for (const std::string& r : read.records) jsonl += r + "\n";
  write_file(dir.file("records.jsonl"), jsonl);
  std::string back =
      "SELECT * FROM read_json('" + dir.file("records.jsonl") +
      "', format = 'newline_delimited', columns = " + db.columns_literal(read_parquet(source)) +
      ")";
  std::string original = "SELECT * FROM read_parquet('" + source + "')";
  EXPECT_EQ(db.value("SELECT count(*) FROM (" + back + ")"), "3000");
  EXPECT_EQ(db.differences(original, back), "0");

  // Rows stay in file order: row i is id i.
  EXPECT_THAT(read.records[0], ::testing::StartsWith("{\"id\":0,"));
  EXPECT_THAT(read.records[2999], ::testing::StartsWith("{\"id\":2999,"));
  // Non-finite doubles are strings, so every record is JSON simdjson accepts.
  EXPECT_THAT(read.records[1], HasSubstr("\"float64\":\"NaN\""));
  EXPECT_THAT(read.records[2], HasSubstr("\"float64\":\"Infinity\""));
  EXPECT_THAT(read.records[3], HasSubstr("\"float64\":\"-Infinity\""));
  EXPECT_THAT(read.records[4], HasSubstr("\"float64\":null"));
  EXPECT_THAT(read.records[0], HasSubstr("\"wide\":\"-1500000000000000000000000\""));
  EXPECT_THAT(read.records[4],
              HasSubstr("\"non_finite_list\":[\"-Infinity\",\"NaN\",2.0,\"Infinity\"]"));
  EXPECT_THAT(read.records[4], HasSubstr(" NaN -Infinity \\\\\\\"\","));  // texts untouched
}

TEST(ParquetReader, RecordsBecomeDocumentsThroughTheJsonlParser) {
  TempDir dir;
  DuckDbSql db;
  std::string source = all_types_file(dir, db);
  ParquetReader reader(source, 0, {"text", 5000, 8 << 20});
  auto batch = reader.next();
  ASSERT_EQ(batch->raw_lines.size(), 3000u);
  JsonlParser({"text", "id"}).parse(*batch, source);
  // Null texts are records whose text is not a string: one error each, named by row.
  auto expected_texts = db.rows("SELECT id, text FROM read_parquet('" + source +
                                "') WHERE text IS NOT NULL ORDER BY id");
  ASSERT_EQ(batch->size(), expected_texts.size());
  EXPECT_EQ(batch->errors.size(), 3000 - expected_texts.size());
  for (size_t i = 0; i < batch->size(); ++i) {
    ASSERT_EQ(batch->id(i), expected_texts[i][0]);
    ASSERT_EQ(batch->text(i), expected_texts[i][1]);
    ASSERT_EQ(batch->key(i).row(), std::stoull(expected_texts[i][0]));
  }
  const InputErrorRecord& first = batch->errors.front();  // row 5 (0-based): line 6
  EXPECT_EQ(input_error_name(first.kind), "text_not_string");
  EXPECT_EQ(first.line, 6u);
  EXPECT_THAT(first.message, HasSubstr(source + ":6:"));
}

TEST(ParquetReader, BatchSizesCutTheSameRecords) {
  TempDir dir;
  DuckDbSql db;
  std::string source = all_types_file(dir, db, ", ROW_GROUP_SIZE 100", " LIMIT 600");
  ReadResult whole = read_all(source, 1000);
  ASSERT_EQ(whole.records.size(), 600u);
  for (size_t batch_records : {1, 7}) {
    ReadResult cut = read_all(source, batch_records);
    EXPECT_EQ(cut.records, whole.records);
    for (size_t rows : cut.batch_rows) EXPECT_LE(rows, batch_records);
  }
  // The byte limit cuts batches too (at least one record each).
  ParquetReader small(source, 0, {"text", 1000, 1});
  auto batch = small.next();
  EXPECT_EQ(batch->raw_lines.size(), 1u);
}

TEST(ParquetReader, ProjectionReadsOnlyTheColumnsAskedForWithTheSameRows) {
  TempDir dir;
  DuckDbSql db;
  std::string source = all_types_file(dir, db, ", ROW_GROUP_SIZE 700");
  ParquetOptions options{"text", 500, 8 << 20};
  // In any order, with a name the file lacks; the text column comes without being named.
  options.columns = std::vector<std::string>{"wide", "absent", "float64", "id"};
  ParquetReader reader(source, 3, options);
  std::vector<std::string> records;
  std::vector<uint64_t> lines;
  while (auto batch = reader.next()) {
    EXPECT_TRUE(batch->errors.empty());
    for (const RawLine& line : batch->raw_lines) {
      records.emplace_back(batch->raw_bytes().substr(line.offset, line.length));
      lines.push_back(line.line_number);
    }
  }
  ASSERT_EQ(records.size(), 3000u);
  for (size_t i = 0; i < lines.size(); ++i) ASSERT_EQ(lines[i], i + 1);
  // The file's column order, only those asked for: DuckDB reads the records back as exactly
  // the projected table.
  EXPECT_THAT(records[0], ::testing::StartsWith("{\"id\":0,\"text\":"));
  EXPECT_THAT(records[2], HasSubstr("\"float64\":\"Infinity\",\"wide\":"));
  std::string jsonl;
  for (const std::string& r : records) jsonl += r + "\n";
  write_file(dir.file("records.jsonl"), jsonl);
  std::string projected = "SELECT id, text, float64, wide FROM read_parquet('" + source + "')";
  std::string back =
      "SELECT * FROM read_json('" + dir.file("records.jsonl") +
      "', format = 'newline_delimited', columns = " + db.columns_literal("(" + projected + ")") +
      ")";
  EXPECT_EQ(db.value("SELECT count(*) FROM (" + back + ")"), "3000");
  EXPECT_EQ(db.differences(projected, back), "0");
  EXPECT_EQ(db.columns("(" + back + ")").size(), 4u);

  // An empty projection reads the text alone.
  options.columns = std::vector<std::string>{};
  ParquetReader text_only(source, 3, options);
  auto batch = text_only.next();
  ASSERT_FALSE(batch->raw_lines.empty());
  EXPECT_EQ(batch->raw_bytes().substr(0, batch->raw_lines[0].length),
            "{\"text\":" +
                db.value("SELECT to_json(text) FROM read_parquet('" + source + "') LIMIT 1") + "}");
}

TEST(ParquetReader, ChoosesTheTextColumnByName) {
  TempDir dir;
  DuckDbSql db;
  std::string source = dir.file("c.parquet");
  db.exec("COPY (SELECT 'b' || i AS body, i AS n FROM range(3) t(i)) TO '" + source +
          "' (FORMAT parquet)");
  ReadResult read = read_all(source, 10, "body");
  EXPECT_TRUE(read.errors.empty());
  EXPECT_EQ(read.records,
            (std::vector<std::string>{R"({"body":"b0","n":0})", R"({"body":"b1","n":1})",
                                      R"({"body":"b2","n":2})"}));
}

// One error record naming the file and what is wrong; no rows.
void expect_file_error(const std::string& path, const std::string& kind,
                       const std::string& message_part, std::string text = "text") {
  ReadResult read = read_all(path, 100, std::move(text));
  EXPECT_TRUE(read.ended);
  EXPECT_TRUE(read.records.empty());
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(input_error_name(read.errors[0].kind), kind);
  EXPECT_THAT(read.errors[0].message, HasSubstr(path));
  EXPECT_THAT(read.errors[0].message, HasSubstr(message_part));
}

TEST(ParquetReader, BadFilesAreOneErrorRecordNamingThem) {
  TempDir dir;
  DuckDbSql db;
  std::string good = dir.file("good.parquet");
  db.exec("COPY (SELECT 'text ' || i AS text, i AS n FROM range(2000) t(i)) TO '" + good +
          "' (FORMAT parquet)");
  std::string bytes = read_file(good);

  write_file(dir.file("json.parquet"), "{\"text\": \"not parquet\"}\n");
  expect_file_error(dir.file("json.parquet"), "not_parquet", "does not start with PAR1");

  write_file(dir.file("cut.parquet"), bytes.substr(0, bytes.size() / 2));
  expect_file_error(dir.file("cut.parquet"), "truncated_parquet", "no PAR1 footer");

  write_file(dir.file("empty.parquet"), "");
  expect_file_error(dir.file("empty.parquet"), "empty_file", "empty");

  // The footer's metadata overwritten, its framing intact: DuckDB cannot read it.
  std::string damaged = bytes;
  for (size_t i = damaged.size() - 60; i < damaged.size() - 8; ++i) damaged[i] = '\xff';
  write_file(dir.file("damaged.parquet"), damaged);
  expect_file_error(dir.file("damaged.parquet"), "corrupt_parquet", "cannot be read as Parquet");

  expect_file_error(good, "missing_text", "no 'body' column (the columns are: text, n)", "body");
  expect_file_error(good, "text_not_string", "column 'n' is BIGINT, not a string", "n");
}

TEST(ParquetReader, DamagedPagesEndTheFileWithAnErrorRecord) {
  TempDir dir;
  DuckDbSql db;
  // Compressed page data garbled a third of the way in: zstd cannot decode it.
  std::string damaged = write_damaged_parquet(db, dir);
  ReadResult read = read_all(damaged, 1024);
  EXPECT_TRUE(read.ended);
  EXPECT_LT(read.records.size(), 100000u);
  // The damage lies past the first row group (20,000 rows): most of its rows come through.
  EXPECT_GT(read.records.size(), 10000u);
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(input_error_name(read.errors[0].kind), "corrupt_parquet");
  EXPECT_THAT(read.errors[0].message, HasSubstr(damaged));
  EXPECT_EQ(read.errors[0].line, read.records.size() + 1);
  // Where reading stopped: the first row lost and its row group (20,000 rows each).
  size_t next = read.records.size();
  EXPECT_THAT(read.errors[0].message,
              HasSubstr(fmt::format("the rows from row {} (row group index {} of 5) on are lost",
                                    next + 1, next / 20000)));
}

TEST(ParquetReader, RecognisesParquetByItsFirstBytes) {
  TempDir dir;
  DuckDbSql db;
  db.exec("COPY (SELECT 'x' AS text) TO '" + dir.file("part-0") + "' (FORMAT parquet)");
  write_file(dir.file("a.jsonl"), "PAR");
  EXPECT_TRUE(ParquetReader::has_parquet_magic(dir.file("part-0")));
  EXPECT_FALSE(ParquetReader::has_parquet_magic(dir.file("a.jsonl")));
  EXPECT_FALSE(ParquetReader::has_parquet_magic(dir.file("missing")));
}

}  // namespace
}  // namespace winnow::testing
