#include "pipeline/pipeline_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "stages/builtin_stages.h"
#include "test_support.h"

namespace winnow {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class PipelineConfigTest : public ::testing::Test {
 protected:
  PipelineConfigTest() { register_builtin_stages(registry_); }

  Result<PipelineConfig> load(const std::string& yaml) {
    return PipelineConfig::load_string(yaml, "name.yaml", registry_);
  }

  // Loads a config that must fail and returns its message.
  std::string error_of(const std::string& yaml) {
    auto config = load(yaml);
    EXPECT_FALSE(config.is_ok()) << "loaded but should have failed:\n" << yaml;
    return config.is_ok() ? std::string() : config.status().message();
  }

  std::string fingerprint_of(const std::string& yaml) {
    auto config = load(yaml);
    EXPECT_TRUE(config.is_ok()) << config.status().message();
    return config.is_ok() ? config->fingerprint : std::string();
  }

  StageRegistry registry_;
};

constexpr const char* kFull =
    "input:\n"                      // 1
    "  paths: [a.jsonl, 'dir/']\n"  // 2
    "  text_field: content\n"       // 3
    "  id_field: doc_id\n"          // 4
    "  max_line_bytes: 1000\n"      // 5
    "output:\n"                     // 6
    "  path: out\n"                 // 7
    "  format: jsonl.gz\n"          // 8
    "  compression_level: 5\n"      // 9
    "  write_rejected: false\n"     // 10
    "on_error: skip\n"              // 11
    "threads: 4\n"                  // 12
    "batch_size: 256\n"             // 13
    "batch_bytes: 65536\n"          // 14
    "seed: 7\n"                     // 15
    "stages:\n"                     // 16
    "  - stage: text_length\n"      // 17
    "    name: len\n"               // 18
    "    workers: 2\n"              // 19
    "    min_chars: 10\n"           // 20
    "    max_chars: 100\n"          // 21
    "  - stage: select\n"           // 22
    "    field: lang\n"             // 23
    "    equals: en\n"              // 24
    "  - stage: sample\n"           // 25
    "    fraction: 0.5\n"           // 26
    "  - stage: add_id\n"           // 27
    "    prefix: x\n";              // 28

TEST_F(PipelineConfigTest, FullConfigParsesEveryField) {
  auto config = load(kFull);
  ASSERT_TRUE(config.is_ok()) << config.status().message();
  const PipelineConfig& c = config.value();
  EXPECT_EQ(c.source, "name.yaml");
  EXPECT_EQ(c.input_paths, (std::vector<std::string>{"a.jsonl", "dir/"}));
  EXPECT_EQ(c.text_field, "content");
  EXPECT_EQ(c.id_field, "doc_id");
  EXPECT_EQ(c.max_line_bytes, 1000u);
  EXPECT_EQ(c.output_path, "out");
  EXPECT_EQ(c.output_format.compression, Compression::kGzip);
  EXPECT_EQ(c.compression_level, 5);
  EXPECT_FALSE(c.write_rejected);
  EXPECT_EQ(c.on_error, OnError::kSkip);
  EXPECT_EQ(c.threads, 4);
  EXPECT_EQ(c.batch_size, 256u);
  EXPECT_EQ(c.batch_bytes, 65536u);
  EXPECT_EQ(c.seed, 7u);
  EXPECT_EQ(c.fingerprint.size(), 16u);

  ASSERT_EQ(c.stages.size(), 4u);
  EXPECT_EQ(c.stages[0].spec, registry_.find("text_length"));
  EXPECT_EQ(c.stages[0].name, "len");
  EXPECT_EQ(c.stages[0].workers, 2);
  EXPECT_EQ(c.stages[0].params.get_int("min_chars"), 10);
  EXPECT_EQ(c.stages[0].params.get_int("max_chars"), 100);
  EXPECT_FALSE(c.stages[0].params.get_bool("annotate"));

  EXPECT_EQ(c.stages[1].spec, registry_.find("select"));
  EXPECT_EQ(c.stages[1].name, "select");  // defaults to the type
  EXPECT_EQ(c.stages[1].workers, 0);
  EXPECT_EQ(c.stages[1].params.get_string("field"), "lang");
  EXPECT_EQ(c.stages[1].params.get_scalar("equals").text, "en");

  EXPECT_EQ(c.stages[2].spec, registry_.find("sample"));
  EXPECT_DOUBLE_EQ(c.stages[2].params.get_float("fraction"), 0.5);
  EXPECT_FALSE(c.stages[2].params.has("seed"));

  EXPECT_EQ(c.stages[3].spec, registry_.find("add_id"));
  EXPECT_EQ(c.stages[3].params.get_string("prefix"), "x");
  EXPECT_EQ(c.stages[3].params.get_string("field"), "id");

  // Parameter errors reported later by a stage factory still name the right line.
  EXPECT_THAT(c.stages[0].params.error("max_chars", "m").message(), StartsWith("name.yaml:21:"));
}

TEST_F(PipelineConfigTest, DefaultsWhenSectionsAreAbsent) {
  auto config = load("seed: 1\n");
  ASSERT_TRUE(config.is_ok()) << config.status().message();
  const PipelineConfig& c = config.value();
  EXPECT_TRUE(c.input_paths.empty());
  EXPECT_EQ(c.text_field, "text");
  EXPECT_EQ(c.id_field, "id");
  EXPECT_EQ(c.output_format.compression, Compression::kZstd);
  EXPECT_EQ(c.compression_level, 0);
  EXPECT_TRUE(c.write_rejected);
  EXPECT_EQ(c.on_error, OnError::kFail);
  EXPECT_EQ(c.threads, 0);
  EXPECT_EQ(c.batch_size, 1024u);
  EXPECT_TRUE(c.stages.empty());
}

TEST_F(PipelineConfigTest, ParquetInputTakesTheTextColumnAndBatchSizes) {
  auto config =
      load("input: {format: parquet, text_field: body}\nbatch_size: 77\nbatch_bytes: 5000\n");
  ASSERT_TRUE(config.is_ok()) << config.status().message();
  EXPECT_EQ(config->input_format, InputFormat::kParquet);
  EXPECT_EQ(config->input_kind, ItemKind::kDocument);
  InputOptions options = config->input_options(33);
  EXPECT_EQ(options.parquet.text_field, "body");
  EXPECT_EQ(options.parquet.batch_records, 33u);
  EXPECT_EQ(options.parquet.batch_bytes, 5000u);
}

TEST_F(PipelineConfigTest, OnErrorFail) {
  auto config = load("on_error: fail\n");
  ASSERT_TRUE(config.is_ok()) << config.status().message();
  EXPECT_EQ(config->on_error, OnError::kFail);
}

TEST_F(PipelineConfigTest, UnknownTopLevelKey) {
  std::string message = error_of(
      "seed: 1\n"
      "threads: 2\n"
      "thread: 3\n");
  EXPECT_THAT(message, StartsWith("name.yaml:3: "));
  EXPECT_THAT(message, HasSubstr("unknown key 'thread'"));
  EXPECT_THAT(message, HasSubstr("threads"));  // lists the known keys
}

TEST_F(PipelineConfigTest, MessagesSayWhatIsWrongInPlainWords) {
  // A file nested deeper than YAML's parser takes (yaml-cpp says "bad file").
  std::string deep = error_of("stages: " + std::string(5000, '[') + std::string(5000, ']'));
  EXPECT_THAT(deep, HasSubstr("name.yaml:1: invalid YAML: nested 500 levels deep"));
  EXPECT_THAT(deep, ::testing::Not(HasSubstr("bad file")));
  // A list where a list of strings' item belongs.
  std::string nested = error_of(
      "stages:\n"
      "  - {stage: select, field: lang, in: [[en, de]]}\n");
  EXPECT_THAT(nested, HasSubstr("must be a list of strings, got a list inside the list"));
  EXPECT_THAT(error_of("materialize: sometimes\n"),
              HasSubstr("materialize must be auto, always or never"));
}

TEST_F(PipelineConfigTest, UnknownKeyInInput) {
  std::string message = error_of(
      "seed: 1\n"
      "input:\n"
      "  paths: [a]\n"
      "  text_feild: body\n");
  EXPECT_THAT(message, StartsWith("name.yaml:4: "));
  EXPECT_THAT(message, HasSubstr("unknown key 'text_feild' in input"));
  EXPECT_THAT(message, HasSubstr("text_field"));
}

TEST_F(PipelineConfigTest, UnknownKeyInOutput) {
  std::string message = error_of(
      "output:\n"
      "  path: out\n"
      "\n"
      "  compress: yes\n");
  EXPECT_THAT(message, StartsWith("name.yaml:4: "));
  EXPECT_THAT(message, HasSubstr("unknown key 'compress' in output"));
}

TEST_F(PipelineConfigTest, BadOutputFormat) {
  std::string message = error_of(
      "seed: 1\n"
      "output:\n"
      "  path: out\n"
      "  format: orc\n");
  EXPECT_THAT(message, StartsWith("name.yaml:4: "));
  EXPECT_THAT(message, HasSubstr("'orc'"));
  EXPECT_THAT(message, HasSubstr("jsonl.zst, parquet"));
}

TEST_F(PipelineConfigTest, ParquetOutputSettings) {
  auto loaded = load(
      "output:\n"
      "  format: parquet\n"
      "  parquet_compression: snappy\n"
      "  row_group_rows: 5000\n");
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message();
  const PipelineConfig& c = *loaded;
  EXPECT_TRUE(c.output_format.parquet());
  EXPECT_EQ(c.output_format.parquet_codec, ParquetCodec::kSnappy);
  EXPECT_EQ(c.output_format.row_group_rows, 5000u);
  EXPECT_EQ(c.output_format.extension(), ".parquet");
  EXPECT_THAT(error_of("output: {format: parquet, parquet_compression: brotli}\n"),
              HasSubstr("zstd, snappy, gzip, lz4, none; got 'brotli'"));
  EXPECT_THAT(error_of("output: {format: parquet, row_group_rows: 0}\n"),
              HasSubstr("row_group_rows must be at least 1"));
  // A level is zstd's only: snappy takes none.
  EXPECT_THAT(error_of("output: {format: parquet, parquet_compression: snappy, "
                       "compression_level: 3}\n"),
              HasSubstr("compression_level must be 0 (default) to 0"));
}

TEST_F(PipelineConfigTest, BadOnError) {
  std::string message = error_of(
      "seed: 1\n"
      "\n"
      "on_error: ignore\n");
  EXPECT_THAT(message, StartsWith("name.yaml:3: "));
  EXPECT_THAT(message, HasSubstr("on_error must be 'fail' or 'skip'"));
}

TEST_F(PipelineConfigTest, WrongTypesForRunSettings) {
  EXPECT_THAT(error_of("seed: 1\nthreads: many\n"), StartsWith("name.yaml:2: "));
  EXPECT_THAT(error_of("seed: 1\nbatch_size: 0\n"), StartsWith("name.yaml:2: "));
  EXPECT_THAT(error_of("seed: 1\nbatch_bytes: 0\n"),
              AllOf(StartsWith("name.yaml:2: "), HasSubstr("batch_bytes must be at least 1")));
  EXPECT_THAT(error_of("seed: 1\nseed2: 0\n"), StartsWith("name.yaml:2: "));
  EXPECT_THAT(error_of("threads: -1\n"), StartsWith("name.yaml:1: "));
  EXPECT_THAT(error_of("output:\n  write_rejected: sometimes\n"), StartsWith("name.yaml:2: "));
  EXPECT_THAT(error_of("input:\n  paths: {a: 1}\n"), StartsWith("name.yaml:2: "));
  EXPECT_THAT(error_of("stages: {a: 1}\n"), StartsWith("name.yaml:1: "));
  EXPECT_THAT(error_of("input: [a]\n"), StartsWith("name.yaml:1: "));
}

TEST_F(PipelineConfigTest, UnknownStageTypeListsKnownStages) {
  std::string message = error_of(
      "seed: 1\n"
      "stages:\n"
      "  - stage: text_length\n"
      "    min_chars: 1\n"
      "  - stage: dedupe\n");
  EXPECT_THAT(message, StartsWith("name.yaml:5: "));
  // The list grows with every stage added; check its shape and a few members.
  EXPECT_THAT(message, HasSubstr("unknown stage 'dedupe' (known: add_id, "));
  for (const char* stage : {", sample, ", ", select, ", ", text_length"}) {
    EXPECT_THAT(message, HasSubstr(stage));
  }
}

TEST_F(PipelineConfigTest, StageWithoutTypeIsAnError) {
  std::string message = error_of(
      "stages:\n"
      "  - stage: sample\n"
      "    fraction: 0.1\n"
      "  - name: nothing\n");
  EXPECT_THAT(message, StartsWith("name.yaml:4: "));
  EXPECT_THAT(message, HasSubstr("'stage'"));
}

TEST_F(PipelineConfigTest, DuplicateStageNames) {
  std::string message = error_of(
      "stages:\n"
      "  - stage: sample\n"
      "    fraction: 0.1\n"
      "  - stage: text_length\n"
      "    min_chars: 3\n"
      "  - stage: sample\n"
      "    fraction: 0.2\n");
  EXPECT_THAT(message, StartsWith("name.yaml:6: "));
  EXPECT_THAT(message, HasSubstr("two stages are named 'sample'"));
}

TEST_F(PipelineConfigTest, DuplicateExplicitNames) {
  std::string message = error_of(
      "stages:\n"
      "  - stage: text_length\n"
      "    name: len\n"
      "  - stage: sample\n"
      "    fraction: 0.2\n"
      "  - stage: text_length\n"
      "    name: len\n");
  EXPECT_THAT(message, StartsWith("name.yaml:6: "));
  EXPECT_THAT(message, HasSubstr("'len'"));
  // The same type twice under distinct names is fine.
  auto ok = load(
      "stages:\n"
      "  - stage: text_length\n"
      "    name: a\n"
      "  - stage: text_length\n"
      "    name: b\n");
  ASSERT_TRUE(ok.is_ok()) << ok.status().message();
  EXPECT_EQ(ok->stages.size(), 2u);
}

TEST_F(PipelineConfigTest, StageParameterErrors) {
  std::string unknown = error_of(
      "seed: 1\n"
      "stages:\n"
      "  - stage: text_length\n"
      "    name: len\n"
      "    min_chars: 1\n"
      "    min_char: 2\n");
  EXPECT_THAT(unknown, StartsWith("name.yaml:6: "));
  EXPECT_THAT(unknown, HasSubstr("stage 'len'"));
  EXPECT_THAT(unknown, HasSubstr("unknown parameter 'min_char'"));
  EXPECT_THAT(unknown, HasSubstr("min_chars, max_chars, annotate"));

  std::string wrong_type = error_of(
      "stages:\n"
      "  - stage: sample\n"
      "    fraction: \"0.5\"\n");
  EXPECT_THAT(wrong_type, StartsWith("name.yaml:3: "));
  EXPECT_THAT(wrong_type, HasSubstr("parameter 'fraction'"));

  std::string missing = error_of(
      "seed: 1\n"
      "stages:\n"
      "  - stage: text_length\n"
      "  - stage: select\n"
      "    equals: x\n");
  EXPECT_THAT(missing, StartsWith("name.yaml:4: "));
  EXPECT_THAT(missing, HasSubstr("missing required parameter 'field'"));
}

TEST_F(PipelineConfigTest, WorkersMustBeAnInteger) {
  std::string message = error_of(
      "stages:\n"
      "  - stage: sample\n"
      "    fraction: 0.5\n"
      "    workers: lots\n");
  EXPECT_THAT(message, StartsWith("name.yaml:4: "));
  EXPECT_THAT(message, HasSubstr("workers"));
}

TEST_F(PipelineConfigTest, InvalidYamlGivesALine) {
  std::string unclosed = error_of(
      "seed: 1\n"
      "threads: 2\n"
      "input: {paths: [a, b}\n");
  EXPECT_THAT(unclosed, StartsWith("name.yaml:3: invalid YAML"));

  std::string bad_indent = error_of(
      "seed: 1\n"
      "output:\n"
      "  path: out\n"
      " format: jsonl\n");
  EXPECT_THAT(bad_indent, StartsWith("name.yaml:4: invalid YAML"));
}

TEST_F(PipelineConfigTest, NotAMap) {
  EXPECT_THAT(error_of("- a\n- b\n"), StartsWith("name.yaml:1: "));
}

TEST_F(PipelineConfigTest, LoadFileReadsAndNamesTheFile) {
  testing::TempDir dir;
  std::string path = dir.file("p.yaml");
  testing::write_file(path, "seed: 3\nthreads: x\n");
  auto bad = PipelineConfig::load_file(path, registry_);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_THAT(bad.status().message(), StartsWith(path + ":2: "));

  testing::write_file(path, kFull);
  auto good = PipelineConfig::load_file(path, registry_);
  ASSERT_TRUE(good.is_ok()) << good.status().message();
  EXPECT_EQ(good->fingerprint, fingerprint_of(kFull));

  EXPECT_FALSE(PipelineConfig::load_file(dir.file("missing.yaml"), registry_).is_ok());
}

// Replaces the first occurrence of `from` in kFull, checking it was there.
std::string full_with(const std::string& from, const std::string& to) {
  std::string text = kFull;
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST_F(PipelineConfigTest, FingerprintIsStable) {
  EXPECT_EQ(fingerprint_of(kFull), fingerprint_of(kFull));
  // Comments and blank lines decide nothing.
  EXPECT_EQ(fingerprint_of(kFull), fingerprint_of(std::string("# header\n\n") + kFull));
  // Nor does block or flow style.
  EXPECT_EQ(fingerprint_of("stages:\n  - stage: sample\n    fraction: 0.5\n"),
            fingerprint_of("stages: [{stage: sample, fraction: 0.5}]\n"));
}

TEST_F(PipelineConfigTest, FingerprintChangesWithWhatDecidesOutput) {
  std::string base = fingerprint_of(kFull);
  ASSERT_FALSE(base.empty());
  EXPECT_NE(base, fingerprint_of(full_with("min_chars: 10", "min_chars: 11")));
  EXPECT_NE(base, fingerprint_of(full_with("fraction: 0.5", "fraction: 0.25")));
  EXPECT_NE(base, fingerprint_of(full_with("seed: 7", "seed: 8")));
  EXPECT_NE(base, fingerprint_of(full_with("format: jsonl.gz", "format: jsonl.zst")));
  EXPECT_NE(base, fingerprint_of(full_with("format: jsonl.gz", "format: jsonl")));
  EXPECT_NE(base, fingerprint_of(full_with("text_field: content", "text_field: body")));
  EXPECT_NE(base, fingerprint_of(full_with("name: len", "name: length")));
  EXPECT_NE(base, fingerprint_of(full_with("write_rejected: false", "write_rejected: true")));
}

TEST_F(PipelineConfigTest, FingerprintIgnoresRunSettingsAndPaths) {
  std::string base = fingerprint_of(kFull);
  ASSERT_FALSE(base.empty());
  EXPECT_EQ(base, fingerprint_of(full_with("threads: 4", "threads: 16")));
  EXPECT_EQ(base, fingerprint_of(full_with("batch_size: 256", "batch_size: 4096")));
  EXPECT_EQ(base, fingerprint_of(full_with("batch_bytes: 65536", "batch_bytes: 1048576")));
  EXPECT_EQ(base, fingerprint_of(full_with("  path: out\n", "  path: elsewhere/out\n")));
  EXPECT_EQ(base, fingerprint_of(full_with("paths: [a.jsonl, 'dir/']", "paths: [b.jsonl]")));
}

// A pinned worker count is a run setting like threads: it cannot change output bytes.
TEST_F(PipelineConfigTest, FingerprintIgnoresPinnedWorkers) {
  EXPECT_EQ(fingerprint_of(kFull), fingerprint_of(full_with("workers: 2", "workers: 5")));
}

// select compares a quoted "1" as text and an unquoted 1 as a number, so the two can keep
// different documents: the fingerprint must tell them apart.
TEST_F(PipelineConfigTest, FingerprintTellsQuotedFromUnquotedScalars) {
  EXPECT_NE(fingerprint_of(full_with("equals: en", "equals: 1")),
            fingerprint_of(full_with("equals: en", "equals: \"1\"")));
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

TEST(PipelineConfigEmpty, AnEmptyFileMeansEveryDefault) {
  StageRegistry registry;
  register_builtin_stages(registry);
  for (const char* text : {"", "# only a comment\n", "\n\n"}) {
    auto config = PipelineConfig::load_string(text, "empty.yaml", registry);
    ASSERT_TRUE(config.is_ok()) << config.status().message();
    EXPECT_TRUE(config->stages.empty());
    EXPECT_EQ(config->on_error, OnError::kFail);
    EXPECT_EQ(config->output_format.compression, Compression::kZstd);
  }
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

TEST(PipelineConfigDuplicates, AKeyGivenTwiceIsAnErrorAtItsSecondLine) {
  StageRegistry registry;
  register_builtin_stages(registry);
  auto top = PipelineConfig::load_string("seed: 1\nthreads: 2\nseed: 3\n", "d.yaml", registry);
  ASSERT_FALSE(top.is_ok());
  EXPECT_THAT(top.status().message(), ::testing::StartsWith("d.yaml:3: "));
  EXPECT_THAT(top.status().message(), ::testing::HasSubstr("'seed' appears twice"));

  auto stage = PipelineConfig::load_string(
      "stages:\n  - stage: text_length\n    min_chars: 1\n    min_chars: 5\n", "d.yaml", registry);
  ASSERT_FALSE(stage.is_ok());
  EXPECT_THAT(stage.status().message(), ::testing::StartsWith("d.yaml:4: "));
  EXPECT_THAT(stage.status().message(), ::testing::HasSubstr("'min_chars' appears twice"));
}

}  // namespace
}  // namespace winnow
