// ParquetTable, through ShardOutput as the writer uses it: the encoder's lines in, Parquet out.
// DuckDB, the reference, wrote the inputs and reads the outputs: a Parquet input's columns come
// back with its types and values, annotations get their declared types, parts share a schema,
// and nothing is left under a final name before commit.
#include "io/parquet_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "duckdb_sql.h"
#include "io/all_types_table.h"
#include "io/jsonl_encoder.h"
#include "io/jsonl_parser.h"
#include "io/parquet_reader.h"
#include "io/parquet_schemas.h"
#include "io/shard_output.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& parquet) {
  ParquetReader reader(parquet, 0, {});
  std::vector<std::string> lines;
  while (auto batch = reader.next()) {
    for (const RawLine& line : batch->raw_lines) {
      lines.emplace_back(batch->raw_bytes().substr(line.offset, line.length));
    }
  }
  return lines;
}

// The lines parsed into documents and encoded, as the writing pass does.
std::unique_ptr<DocBatch> encoded_batch(const std::vector<std::string>& lines,
                                        const std::function<void(DocBatch&)>& stages = {}) {
  auto batch = make_raw_batch(lines);
  JsonlParser({}).parse(*batch, "in");
  if (stages) stages(*batch);
  static ReasonTable reasons;
  JsonlEncoder(EncodeOptions{}, reasons).encode(*batch, "in");
  return batch;
}

ShardPaths paths_in(const TempDir& dir) {
  fs::create_directories(dir.file("out/rejected"));
  fs::create_directories(dir.file("out/errors"));
  return {dir.file("out/a.parquet"),
          dir.file("out/rejected/a.parquet"),
          dir.file("out/errors/a.jsonl"),
          dir.file("out/a.done"),
          "a",
          dir.file("out/files")};
}

ShardOutputOptions parquet_options(const std::string& source = {}, uint64_t max_file_bytes = 0) {
  ShardOutputOptions options;
  options.format = *OutputFormat().with_name("parquet");
  options.max_file_bytes = max_file_bytes;
  if (!source.empty()) {
    auto columns = shared_parquet_columns({source}, false);
    EXPECT_TRUE(columns.is_ok() && *columns) << source;
    if (columns.is_ok()) options.parquet.source_columns = *columns;
  }
  return options;
}

TEST(ParquetTable, EveryTypeIsWrittenBackAsTheParquetInputHadIt) {
  TempDir dir;
  DuckDbSql db;
  std::string source = all_types_file(dir, db, "", " WHERE text IS NOT NULL");
  auto batch = encoded_batch(lines_of(source));
  ASSERT_TRUE(batch->errors.empty());

  ShardOutput output(paths_in(dir), parquet_options(source));
  ASSERT_TRUE(output.write(*batch).is_ok());
  ASSERT_TRUE(output.commit({"f", source, {}}).is_ok());
  std::string written = dir.file("out/a.parquet");
  EXPECT_EQ(db.columns(read_parquet(written)), db.columns(read_parquet(source)));
  EXPECT_EQ(db.differences("SELECT * FROM read_parquet('" + source + "')",
                           "SELECT * FROM read_parquet('" + written + "')"),
            "0");
  // In the same order.
  EXPECT_EQ(db.value("SELECT string_agg(id::VARCHAR, ',') FROM read_parquet('" + written + "')"),
            db.value("SELECT string_agg(id::VARCHAR, ',') FROM read_parquet('" + source + "')"));
  EXPECT_FALSE(fs::exists(dir.file("out/rejected/a.parquet")));  // nothing was rejected
}

TEST(ParquetTable, AnnotationsGetTheirDeclaredTypesAndPartsShareOneSchema) {
  TempDir dir;
  DuckDbSql db;
  std::vector<std::string> lines;
  for (int i = 0; i < 40; ++i) {
    lines.push_back("{\"id\": " + std::to_string(i) + ", \"text\": \"document " +
                    std::to_string(i) + "\", \"when\": \"2024-01-0" + std::to_string(1 + i % 9) +
                    "\"}");
  }
  // Only the last rows get a "label"; every row an integral "score" a JSON reader would call an
  // integer. Parts of about ten rows each: the first parts hold no label.
  auto batch = encoded_batch(lines, [](DocBatch& b) {
    AnnotationColumn& score = b.annotation("score", AnnotationType::kFloat);
    AnnotationColumn& label = b.annotation("label", AnnotationType::kString);
    for (size_t i = 0; i < b.size(); ++i) {
      score.set_float(i, double(i));
      if (i >= 35) label.set_string(i, "late");
    }
  });
  ShardOutput output(paths_in(dir), parquet_options({}, 500));
  ASSERT_TRUE(output.write(*batch).is_ok());
  // Before commit nothing is under a final name.
  for (const auto& entry : fs::directory_iterator(dir.file("out"))) {
    EXPECT_FALSE(entry.path().extension() == ".parquet") << entry.path();
  }
  ASSERT_TRUE(output.commit({"f", "in", {}}).is_ok());
  std::vector<std::string> parts;
  for (const auto& entry : fs::directory_iterator(dir.file("out"))) {
    if (entry.path().extension() == ".parquet") parts.push_back(entry.path().string());
  }
  std::sort(parts.begin(), parts.end());
  ASSERT_GE(parts.size(), 3u);
  EXPECT_THAT(parts[0], ::testing::EndsWith("a-p00000.parquet"));
  for (const std::string& part : parts) {
    EXPECT_THAT(db.columns(read_parquet(part)),
                ::testing::ElementsAre("id BIGINT", "text VARCHAR", "when VARCHAR", "score DOUBLE",
                                       "label VARCHAR"))
        << part;
  }
  EXPECT_EQ(db.value("SELECT count(*) FROM read_parquet('" + dir.file("out/a-p*.parquet") +
                     "') WHERE label = 'late' AND score >= 35"),
            "5");
  EXPECT_EQ(db.value("SELECT sum(score) FROM read_parquet('" + dir.file("out/a-p*.parquet") + "')"),
            "780.0");
  // No staging file is left.
  for (const auto& entry : fs::directory_iterator(dir.file("out"))) {
    EXPECT_THAT(entry.path().filename().string(), ::testing::Not(::testing::HasSubstr("tmp")));
  }
}

TEST(ParquetTable, AnEmptyTableStillHasItsColumns) {
  TempDir dir;
  DuckDbSql db;
  std::string source = dir.file("in.parquet");
  db.exec("COPY (SELECT 1::INTEGER AS n, 'x' AS text, [1.5]::FLOAT[] AS v) TO '" + source +
          "' (FORMAT parquet)");
  {
    ShardOutput output(paths_in(dir), parquet_options(source));
    ASSERT_TRUE(output.commit({"f", source, {}}).is_ok());
  }
  EXPECT_THAT(db.columns(read_parquet(dir.file("out/a.parquet"))),
              ::testing::ElementsAre("n INTEGER", "text VARCHAR", "v FLOAT[]"));
  EXPECT_EQ(db.value("SELECT count(*) FROM read_parquet('" + dir.file("out/a.parquet") + "')"),
            "0");
  // From JSON Lines, with no row to look at: the text column alone.
  TempDir other;
  ShardOutput output(paths_in(other), parquet_options());
  ASSERT_TRUE(output.commit({"f", "in.jsonl", {}}).is_ok());
  EXPECT_THAT(db.columns(read_parquet(other.file("out/a.parquet"))),
              ::testing::ElementsAre("text VARCHAR"));
}

TEST(ParquetTable, AnUncommittedShardLeavesNoFile) {
  TempDir dir;
  auto batch = encoded_batch({R"({"id": 1, "text": "a"})"});
  {
    ShardOutput output(paths_in(dir), parquet_options({}, 1));
    ASSERT_TRUE(output.write(*batch).is_ok());
  }
  for (const auto& entry : fs::recursive_directory_iterator(dir.file("out"))) {
    EXPECT_FALSE(entry.is_regular_file()) << entry.path();
  }
}

}  // namespace
}  // namespace winnow::testing
