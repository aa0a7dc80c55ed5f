// Projection end to end: a dedup identify pass over Parquet asks DuckDB for only the text, the
// id and the columns its stages read by name (pipeline/record_projection.h), and the run's
// outputs and decisions are byte for byte those of a run that reads every column
// (`input.project_columns: false`). DuckDB says what the projected records weigh.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <string>
#include <vector>

#include "duckdb_sql.h"
#include "pipeline/pipeline_fixture.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

// Exact duplicates (row i and i + 700 share a text), a language, a nested score and a wide blob
// column that no stage reads, in several row groups.
std::string table() {
  return "SELECT i AS id, 'document ' || (i % 700) || ' ' || repeat('w' || (i % 700) || ' ', "
         "(i % 700 % 30)::INTEGER) AS text, CASE WHEN i % 3 = 0 THEN 'fr' ELSE 'en' END AS lang, "
         "{'score': (i * 7) % 10, 'site': 's' || (i % 13)} AS meta, "
         "repeat(chr((65 + i % 26)::INTEGER), 6000)::BLOB AS blob FROM range(2000) t(i)";
}

struct PassFacts {
  std::string name;
  uint64_t input_bytes = 0;
  bool projected = false;
  std::vector<std::string> columns;
};

std::vector<PassFacts> passes(const std::string& out) {
  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(out + "/stats.json");
  std::vector<PassFacts> facts;
  for (simdjson::dom::element pass : stats["passes"].get_array()) {
    PassFacts f;
    f.name = std::string(pass["name"].get_string().value());
    f.input_bytes = pass["input_bytes"].get_uint64().value();
    simdjson::dom::array columns;
    if (!pass["columns"].get(columns)) {
      f.projected = true;
      for (simdjson::dom::element c : columns) f.columns.emplace_back(c.get_string().value());
    }
    facts.push_back(std::move(f));
  }
  return facts;
}

class ParquetProjection : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_.file("in"));
    db_.exec("COPY (" + table() + ") TO '" + dir_.file("in/a.parquet") +
             "' (FORMAT parquet, ROW_GROUP_SIZE 300, COMPRESSION zstd)");
  }
  // Runs `stages` over the input with `input_extra` under input:, into OUT; its summary in
  // `log`.
  void run(const std::string& out, const std::string& stages, const std::string& input_extra,
           const std::string& extra = "", std::string* summary = nullptr) {
    std::string pipeline =
        pipeline_file(dir_, "input: {text_field: text, id_field: id" + input_extra +
                                "}\noutput: {format: jsonl}\n" + extra + "stages:\n" + stages);
    std::string log;
    ASSERT_EQ(
        winnow("run " + pipeline + " -t 2 -i " + dir_.file("in") + " -o " + dir_.file(out), &log),
        0)
        << log;
    if (summary) *summary = log;
  }
  // The JSON bytes DuckDB makes of `members` (json_object's arguments) for every row: what a
  // reader asking for those columns hands on.
  uint64_t json_bytes(const std::string& members) {
    return std::stoull(db_.value("SELECT sum(strlen(json_object(" + members +
                                 ")::VARCHAR)) FROM read_parquet('" + dir_.file("in/a.parquet") +
                                 "')"));
  }

  TempDir dir_;
  DuckDbSql db_;
};

TEST_F(ParquetProjection, ExactDedupIdentifyReadsTheTextAndIdOnly) {
  const std::string stages = "  - stage: exact_dedup\n";
  std::string summary;
  run("projected", stages, "", "", &summary);
  EXPECT_THAT(summary, ::testing::HasSubstr("pass identify exact_dedup: from the input, "));
  EXPECT_THAT(summary, ::testing::HasSubstr("; read Parquet columns id, text\n"));
  run("whole", stages, ", project_columns: false");

  std::vector<PassFacts> projected = passes(dir_.file("projected"));
  ASSERT_EQ(projected.size(), 2u);
  EXPECT_EQ(projected[0].name, "identify exact_dedup");
  ASSERT_TRUE(projected[0].projected);
  EXPECT_EQ(projected[0].columns, (std::vector<std::string>{"id", "text"}));
  EXPECT_EQ(projected[0].input_bytes, json_bytes("'id', id, 'text', text"));
  EXPECT_EQ(projected[1].name, "write");
  EXPECT_FALSE(projected[1].projected);
  EXPECT_EQ(projected[1].input_bytes, json_bytes("'id', id, 'text', text, 'lang', lang, "
                                                 "'meta', meta, 'blob', blob"));
  // The blob is most of the bytes: the identify pass reads a small part of them.
  EXPECT_LT(projected[0].input_bytes * 5, projected[1].input_bytes);

  std::vector<PassFacts> whole = passes(dir_.file("whole"));
  ASSERT_EQ(whole.size(), 2u);
  EXPECT_FALSE(whole[0].projected);
  EXPECT_EQ(whole[0].input_bytes, projected[1].input_bytes);

  // The same decisions: every kept, rejected and global file byte for byte.
  auto tree = read_output_tree(dir_.file("projected"));
  EXPECT_EQ(tree, read_output_tree(dir_.file("whole")));
  EXPECT_TRUE(tree.count("global/exact_dedup/duplicates.jsonl"));
  EXPECT_EQ(stats_total(dir_.file("projected/stats.json"), "dropped"), 1300u);
}

TEST_F(ParquetProjection, FieldsTheStagesReadByNameAreReadToo) {
  // select reads lang, fuzzy_dedup meta.score (in the column meta); storing the batches for the
  // writing pass is off, so the identify pass reads from the input.
  const std::string stages =
      "  - stage: select\n    field: lang\n    equals: en\n"
      "  - stage: fuzzy_dedup\n    survivor: field\n    survivor_field: meta.score\n";
  run("projected", stages, "", "materialize: never\n");
  run("whole", stages, ", project_columns: false", "materialize: never\n");
  std::vector<PassFacts> projected = passes(dir_.file("projected"));
  ASSERT_EQ(projected.size(), 2u);
  ASSERT_TRUE(projected[0].projected);
  EXPECT_EQ(projected[0].columns,
            (std::vector<std::string>{"id", "lang", "meta", "meta.score", "text"}));
  EXPECT_EQ(projected[0].input_bytes, json_bytes("'id', id, 'text', text, 'lang', lang, "
                                                 "'meta', meta"));
  auto tree = read_output_tree(dir_.file("projected"));
  EXPECT_EQ(tree, read_output_tree(dir_.file("whole")));
  EXPECT_GT(stats_total(dir_.file("projected/stats.json"), "dropped"), 0u);

  // Batches stored for the writing pass must hold every column: that pass is not projected,
  // and the output is the same.
  run("stored", stages, "", "materialize: always\n");
  std::vector<PassFacts> stored = passes(dir_.file("stored"));
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_FALSE(stored[0].projected);
  EXPECT_EQ(read_output_tree(dir_.file("stored")), tree);
}

}  // namespace
}  // namespace winnow::testing
