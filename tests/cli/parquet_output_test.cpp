// Parquet output end to end through the `winnow` binary. DuckDB writes the inputs and reads the
// outputs: Parquet in → Parquet out keeps every column with its type (plus typed annotations,
// and the drop reason for rejected rows); JSON Lines → Parquet → JSON Lines gives the records
// back; the files are byte-identical whatever the threads and batch sizes, and after a kill and
// resume; NeMo's English chain decides the same on a Parquet copy of the example corpus.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>

#include "duckdb_sql.h"
#include "io/all_types_table.h"
#include "pipeline/pipeline_fixture.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

TEST(ParquetOutput, ParquetInKeepsEveryColumnAndTypeAndAddsTypedAnnotations) {
  TempDir dir;
  DuckDbSql db;
  std::string source = all_types_file(dir, db, ", ROW_GROUP_SIZE 1000");
  // Drops the shorter texts (ids below 1000: fewer digits), annotating every length.
  std::string pipeline =
      pipeline_file(dir,
                    "on_error: skip\nstages:\n  - stage: text_length\n    min_chars: 51\n"
                    "    annotate: true\n");
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline + " -q --output-format parquet -i " + source + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  std::string kept = dir.file("out/all.parquet");
  std::string rejected = dir.file("out/rejected/all.parquet");
  ASSERT_TRUE(fs::exists(kept)) << out;
  ASSERT_TRUE(fs::exists(rejected));
  EXPECT_TRUE(fs::exists(dir.file("out/errors/all.jsonl")));  // null texts: error records

  std::vector<std::string> input_columns = db.columns(read_parquet(source));
  std::vector<std::string> expected = input_columns;
  expected.push_back("text_length BIGINT");
  EXPECT_EQ(db.columns(read_parquet(kept)), expected);
  // The length is recorded on the dropped documents too.
  expected.push_back("winnow_drop STRUCT(stage VARCHAR, reason VARCHAR, score DOUBLE)");
  EXPECT_EQ(db.columns(read_parquet(rejected)), expected);

  // Every input column's values, row for row, in both tables together.
  std::string columns;
  for (const auto& row : db.rows("DESCRIBE SELECT * FROM " + read_parquet(source))) {
    columns += (columns.empty() ? "" : ", ") + ("\"" + row[0] + "\"");
  }
  EXPECT_EQ(db.differences(
                "SELECT " + columns + " FROM " + read_parquet(source) + " WHERE text IS NOT NULL",
                "SELECT * FROM (SELECT " + columns + " FROM " + read_parquet(kept) +
                    " UNION ALL SELECT " + columns + " FROM " + read_parquet(rejected) + ")"),
            "0");
  EXPECT_NE(db.value("SELECT count(*) FROM " + read_parquet(kept)), "0");
  EXPECT_EQ(db.value("SELECT count(*) FROM " + read_parquet(kept) +
                     " WHERE text_length <> length(text) OR text_length < 51"),
            "0");
  EXPECT_EQ(db.value("SELECT count(*) FROM " + read_parquet(rejected) +
                     " WHERE winnow_drop.stage <> 'text_length' OR winnow_drop.score >= 51"),
            "0");
  // Accounted for: input rows = kept + rejected + errors.
  EXPECT_EQ(stats_total(dir.file("out/stats.json"), "documents"), 3000u);
  EXPECT_EQ(std::stoull(db.value("SELECT count(*) FROM " + read_parquet(kept))) +
                std::stoull(db.value("SELECT count(*) FROM " + read_parquet(rejected))) +
                stats_total(dir.file("out/stats.json"), "errors"),
            3000u);
}

TEST(ParquetOutput, JsonLinesThroughParquetComeBackAsTheyWere) {
  TempDir dir;
  DuckDbSql db;
  // JSON can hold neither NaN nor integers past 64 bits: those columns stay out.
  std::string table = std::string("SELECT * EXCLUDE (non_finite_list, wide) FROM (") + kAllTypes +
                      ") WHERE text IS NOT NULL AND isfinite(coalesce(float64, 0))";
  std::string original = dir.file("in/records.jsonl");
  fs::create_directories(dir.file("in"));
  db.exec("COPY (" + table + ") TO '" + original + "' (FORMAT json)");
  std::string pipeline = pipeline_file(dir, "stages: []\n");
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline + " -q --output-format parquet -i " + original + " -o " +
                       dir.file("parquet"),
                   &out),
            0)
      << out;
  // A second run reads the first run's folder (its kept shards) and writes JSON Lines.
  ASSERT_EQ(winnow("run " + pipeline + " -q --output-format jsonl -i " + dir.file("parquet") +
                       " -o " + dir.file("back"),
                   &out),
            0)
      << out;
  std::string back = dir.file("back/records.jsonl");
  ASSERT_TRUE(fs::exists(back)) << out;
  std::string schema = db.columns_literal("(" + table + ")");
  auto as_table = [&](const std::string& jsonl) {
    return "SELECT * FROM read_json('" + jsonl +
           "', format = 'newline_delimited', columns = " + schema + ")";
  };
  EXPECT_EQ(db.value("SELECT count(*) FROM (" + as_table(back) + ")"),
            db.value("SELECT count(*) FROM (" + table + ")"));
  EXPECT_EQ(db.differences(table, as_table(back)), "0");
  EXPECT_EQ(db.differences(as_table(original), as_table(back)), "0");
  // Strings that look like timestamps stay strings in the Parquet file.
  EXPECT_THAT(db.columns(read_parquet(dir.file("parquet/records.parquet"))),
              ::testing::Contains("ts VARCHAR"));
}

TEST(ParquetOutput, InputsWithDifferentColumnsFailAtSetupOrAreReadAsTheirUnion) {
  TempDir dir;
  DuckDbSql db;
  fs::create_directories(dir.file("in"));
  db.exec("COPY (SELECT 1 AS id, 'one' AS text, 7::INTEGER AS x) TO '" + dir.file("in/a.parquet") +
          "' (FORMAT parquet)");
  db.exec("COPY (SELECT 2 AS id, 'two' AS text, 'why' AS y) TO '" + dir.file("in/b.parquet") +
          "' (FORMAT parquet)");
  std::string out;
  std::string plain = pipeline_file(dir, "stages: []\n");
  EXPECT_EQ(winnow("run " + plain + " -q --output-format parquet -i " + dir.file("in") + " -o " +
                       dir.file("out"),
                   &out),
            2);
  EXPECT_THAT(out, HasSubstr("a.parquet has (id INTEGER, text VARCHAR, x INTEGER)"));
  EXPECT_THAT(out, HasSubstr("b.parquet has (id INTEGER, text VARCHAR, y VARCHAR)"));
  EXPECT_THAT(out, HasSubstr("input.union_schemas: true"));
  EXPECT_FALSE(fs::exists(dir.file("out")));  // refused before the output was touched

  std::string united = pipeline_file(dir, "input: {union_schemas: true}\nstages: []\n");
  ASSERT_EQ(winnow("run " + united + " -q --output-format parquet -i " + dir.file("in") + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  for (const char* name : {"a", "b"}) {
    std::string file = dir.file(std::string("out/") + name + ".parquet");
    EXPECT_THAT(db.columns(read_parquet(file)),
                ::testing::ElementsAre("id INTEGER", "text VARCHAR", "x INTEGER", "y VARCHAR"));
  }
  EXPECT_EQ(db.value("SELECT string_agg(concat_ws('/', id, text, x, y), ' ' ORDER BY id) FROM " +
                     read_parquet(dir.file("out/*.parquet"))),
            "1/one/7 2/two/why");

  // One name with two types cannot be united.
  db.exec("COPY (SELECT 3 AS id, 'three' AS text, 'seven' AS x) TO '" + dir.file("in/c.parquet") +
          "' (FORMAT parquet)");
  EXPECT_EQ(
      winnow("run " + united + " -q --overwrite -i " + dir.file("in") + " -o " + dir.file("out"),
             &out),
      2);
  EXPECT_THAT(out, HasSubstr("column 'x' is INTEGER in"));
  EXPECT_THAT(out, HasSubstr("and VARCHAR in"));
}

// The bytes of every file an output folder holds (stats and charts aside).
TEST(ParquetOutput, SameBytesWhateverTheThreadsBatchSizesOrAKill) {
  TempDir dir;
  DuckDbSql db;
  fs::create_directories(dir.file("in"));
  for (int shard = 0; shard < 3; ++shard) {
    db.exec(
        "COPY (SELECT i AS id, 'document ' || i || ' ' || repeat('word ', (i % 97)::INTEGER) "
        "AS text, i % 13 AS bucket, [i, i * 2] AS pair, {'a': i % 5} AS s FROM range(" +
        std::to_string(shard * 40000) + ", " + std::to_string(shard * 40000 + 40000) +
        ") t(i)) TO '" + dir.file("in/s" + std::to_string(shard) + ".parquet") +
        "' (FORMAT parquet, ROW_GROUP_SIZE 5000)");
  }
  std::string pipeline =
      pipeline_file(dir,
                    "output: {format: parquet, row_group_rows: 3000, max_file_bytes: 3000000}\n"
                    "stages:\n  - stage: text_length\n    min_chars: 100\n    annotate: true\n");
  std::string args = "run " + pipeline + " -q -i " + dir.file("in") + " -o ";
  std::string out;
  ASSERT_EQ(winnow(args + dir.file("one") + " -t 1 --batch-size 1000", &out), 0) << out;
  auto expected = read_output_tree(dir.file("one"));
  ASSERT_GT(expected.size(), 6u);
  ASSERT_EQ(winnow(args + dir.file("two") + " -t 2 --batch-size 77", &out), 0) << out;
  EXPECT_TRUE(read_output_tree(dir.file("two")) == expected);

  std::string target = dir.file("killed");
  signal_midway(args, target, 300, SIGKILL);
  ASSERT_EQ(winnow(args + target, &out), 0) << out;
  EXPECT_TRUE(read_output_tree(target) == expected);
  EXPECT_EQ(stats_total(target + "/stats.json", "documents"), 120000u);
}

// NeMo's English chain over the example corpus and over a Parquet copy of it: the same
// documents kept, the same ones dropped by the same filter.
class ParquetExample : public ExampleCorpusTest {};

TEST_F(ParquetExample, NemoEnglishDecidesTheSameOnAParquetCopy) {
  DuckDbSql db;
  fs::create_directories(dir_->file("parquet"));
  for (const auto& entry : fs::directory_iterator(dir_->file("corpus"))) {
    std::string name = entry.path().filename().string();
    std::string stem = name.substr(0, name.find('.'));
    db.exec("COPY (SELECT * FROM read_json('" + entry.path().string() +
            "', format = 'newline_delimited', columns = {'id': 'VARCHAR', 'text': 'VARCHAR', "
            "'source': 'VARCHAR', 'package': 'VARCHAR'})) TO '" +
            dir_->file("parquet/" + stem + ".parquet") + "' (FORMAT parquet)");
  }
  std::string nemo = kSource + "/examples/nemo_english.yaml";
  run_winnow(nemo, "from_jsonl", "-q --output-format jsonl");
  std::string out;
  ASSERT_EQ(winnow("run " + nemo + " -q --output-format parquet -i " + dir_->file("parquet") +
                       " -o " + dir_->file("from_parquet"),
                   &out),
            0)
      << out;
  auto kept_jsonl = "SELECT id FROM read_json('" + dir_->file("from_jsonl/shard-*.jsonl") +
                    "', format = 'newline_delimited', columns = {'id': 'VARCHAR'})";
  auto kept_parquet = "SELECT id FROM " + read_parquet(dir_->file("from_parquet/*.parquet"));
  EXPECT_NE(db.value("SELECT count(*) FROM (" + kept_parquet + ")"), "0");
  EXPECT_EQ(db.differences(kept_jsonl, kept_parquet), "0");
  auto rejected_jsonl =
      "SELECT id, winnow_drop.stage, winnow_drop.reason FROM read_json('" +
      dir_->file("from_jsonl/rejected/*.jsonl") +
      "', format = 'newline_delimited', columns = {'id': 'VARCHAR', 'winnow_drop': "
      "'STRUCT(stage VARCHAR, reason VARCHAR, score DOUBLE)'})";
  auto rejected_parquet = "SELECT id, winnow_drop.stage, winnow_drop.reason FROM " +
                          read_parquet(dir_->file("from_parquet/rejected/*.parquet"));
  EXPECT_NE(db.value("SELECT count(*) FROM (" + rejected_parquet + ")"), "0");
  EXPECT_EQ(db.differences(rejected_jsonl, rejected_parquet), "0");
}

// Semantic dedup on embeddings that arrive as a Parquet list column (FLOAT[]): 150 vectors
// drawn from hashes, each twice, so exactly one of every pair goes; the output keeps the
// column's type.
TEST(ParquetOutput, SemanticDedupReadsEmbeddingsFromAParquetListColumn) {
  TempDir dir;
  DuckDbSql db;
  std::string input = dir.file("embedded.parquet");
  db.exec(
      "COPY (SELECT i AS id, 'document ' || i AS text, list_transform(range(16), "
      "k -> ((hash(i % 150, k) % 2000)::FLOAT / 1000 - 1)) AS embedding FROM range(300) "
      "t(i)) TO '" +
      input + "' (FORMAT parquet)");
  std::string pipeline =
      pipeline_file(dir,
                    "stages:\n  - stage: semantic_dedup\n    embedding_field: embedding\n"
                    "    n_clusters: 4\n    eps: 0.01\n");
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline + " -q --output-format parquet -i " + input + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  std::string kept = read_parquet(dir.file("out/embedded.parquet"));
  EXPECT_THAT(db.columns(kept), ::testing::Contains("embedding FLOAT[]"));
  EXPECT_EQ(db.value("SELECT count(*) FROM " + kept), "150");
  EXPECT_EQ(db.value("SELECT count(DISTINCT id % 150) FROM " + kept), "150");
  EXPECT_EQ(db.value("SELECT count(*) FROM " + read_parquet(dir.file("out/rejected/*.parquet")) +
                     " WHERE winnow_drop.reason = 'semantic_duplicate'"),
            "150");
}

// examples/embed_semantic_dedup.yaml: the hashed embedder's vectors reach semantic dedup as a
// float-vector column, and Parquet output writes them as FLOAT[] lists; the decisions are the
// same as with JSON Lines output, where they are arrays of numbers.
TEST_F(ParquetExample, EmbedThenSemanticDedupWritesEmbeddingsAsFloatLists) {
  DuckDbSql db;
  std::string example = kSource + "/examples/embed_semantic_dedup.yaml";
  run_winnow(example, "embedded_jsonl", "-q --output-format jsonl");
  run_winnow(example, "embedded_parquet", "-q --output-format parquet");
  std::string kept = read_parquet(dir_->file("embedded_parquet/shard-*.parquet"));
  EXPECT_THAT(db.columns(kept), ::testing::Contains("embedding FLOAT[]"));
  // Every kept document has a unit vector of 384 floats.
  EXPECT_EQ(db.value("SELECT count(*) FROM " + kept +
                     " WHERE len(embedding) <> 384 OR abs(list_sum(list_transform(embedding, "
                     "x -> x * x)) - 1) > 1e-4"),
            "0");
  EXPECT_NE(db.value("SELECT count(*) FROM " + read_parquet(dir_->file(
                                                   "embedded_parquet/rejected/*.parquet")) +
                     " WHERE winnow_drop.reason = 'semantic_duplicate'"),
            "0");
  EXPECT_EQ(db.differences("SELECT id, embedding FROM " + kept,
                           "SELECT id, embedding FROM read_json('" +
                               dir_->file("embedded_jsonl/shard-*.jsonl") +
                               "', format = 'newline_delimited', columns = {'id': 'VARCHAR', "
                               "'embedding': 'FLOAT[]'})"),
            "0");
}

}  // namespace
}  // namespace winnow::testing
