#include "pipeline/executor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const char* kFilterPipeline = R"(
output: {format: jsonl.zst}
on_error: skip
stages:
  - stage: text_length
    name: length
    min_chars: 60
    annotate: true
  - stage: sample
    fraction: 0.7
  - stage: add_id
    field: new_id
)";

RunReport run(const std::string& yaml, const std::vector<std::string>& inputs,
              const std::string& out, int threads = 2, uint64_t batch = 64,
              bool overwrite = false) {
  PipelineConfig config = load_config(yaml);
  RunOptions options;
  options.inputs = inputs;
  options.output = out;
  options.threads = threads;
  options.batch_size = batch;
  options.overwrite = overwrite;
  return run_pipeline(config, options);
}

size_t count_lines(const std::string& path) {
  if (!fs::exists(path)) return 0;
  return split_lines(read_decompressed(path)).size();
}

TEST(Executor, AccountingReconcilesWithFileContents) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 3, 400);
  // A fourth shard with every kind of bad line, plus blank lines.
  write_file(dir.file("bad.jsonl"),
             "{\"text\": \"a good document that is long enough to pass the length filter...\"}\n"
             "{\"text\": \"broken\"\n"
             "[1, 2]\n"
             "\n   \n"
             "{\"id\": 1}\n"
             "{\"text\": 5}\n"
             "{\"text\": \"bad \xff utf8\"}\n"
             "{\"text\": \"ok\", \"id\": {\"x\": 1}}\n");
  inputs.push_back(dir.file("bad.jsonl"));
  RunReport report = run(kFilterPipeline, inputs, dir.file("out"));
  ASSERT_TRUE(report.status.is_ok()) << report.status.message();

  const RunCounts& t = report.totals;
  EXPECT_EQ(t.documents, 3u * 400 + 7);
  EXPECT_TRUE(t.reconciles());
  EXPECT_EQ(t.errors_total(), 6u);
  EXPECT_EQ(t.errors.at("malformed_json"), 1u);
  EXPECT_EQ(t.errors.at("not_an_object"), 1u);
  EXPECT_EQ(t.errors.at("missing_text"), 1u);
  EXPECT_EQ(t.errors.at("text_not_string"), 1u);
  EXPECT_EQ(t.errors.at("invalid_utf8"), 1u);
  EXPECT_EQ(t.errors.at("invalid_id"), 1u);
  EXPECT_EQ(t.blank_lines, 2u);
  EXPECT_GT(t.dropped.at("length/too_short"), 0u);
  EXPECT_GT(t.dropped.at("sample/not_sampled"), 0u);

  // The files agree with the counts: kept + rejected + error lines = documents.
  size_t kept = 0, rejected = 0, errors = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir.file("out"))) {
    std::string path = entry.path().string();
    if (!entry.is_regular_file() || path.find("_done") != std::string::npos ||
        path.find("stats.json") != std::string::npos ||
        path.find("metrics.jsonl") != std::string::npos ||
        path.find("report.html") != std::string::npos)
      continue;
    size_t n = count_lines(path);
    if (path.find("/rejected/") != std::string::npos)
      rejected += n;
    else if (path.find("/errors/") != std::string::npos)
      errors += n;
    else
      kept += n;
  }
  EXPECT_EQ(kept, t.kept);
  EXPECT_EQ(rejected, t.dropped_total());
  EXPECT_EQ(errors, t.errors_total());

  // The per-step table follows the chain: each step's input is the previous step's kept.
  // read, parse, length, sample, add_id, encode, write
  ASSERT_EQ(report.steps.size(), 7u);
  EXPECT_EQ(report.steps[0].docs_in, t.documents);
  for (size_t i = 1; i < report.steps.size(); ++i) {
    EXPECT_EQ(report.steps[i].docs_in, report.steps[i - 1].kept);
  }
  EXPECT_EQ(report.steps.back().kept, t.kept);

  // stats.json says the same.
  simdjson::dom::parser parser;
  auto stats = parser.load(dir.file("out/stats.json"));
  EXPECT_EQ(uint64_t(stats["totals"]["documents"]), t.documents);
  EXPECT_TRUE(bool(stats["reconciles"]));
}

TEST(Executor, OutputIsIdenticalForAnyThreadsAndBatchSizes) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 5, 700);
  write_file(dir.file("bad.jsonl"), "{\"text\": \"x\"}\nnot json\n{\"text\": \"fine text\"}\n");
  inputs.push_back(dir.file("bad.jsonl"));
  for (const char* format : {"jsonl.zst", "jsonl.gz", "jsonl"}) {
    std::string yaml = std::string(kFilterPipeline);
    yaml.replace(yaml.find("jsonl.zst"), 9, format);
    RunReport a = run(yaml, inputs, dir.file(std::string("a-") + format), 1, 7);
    RunReport b = run(yaml, inputs, dir.file(std::string("b-") + format), 4, 1000);
    RunReport c = run(yaml, inputs, dir.file(std::string("c-") + format), 2, 64);
    // 8 threads: several workers read different shards (and the same one) at once.
    RunReport d = run(yaml, inputs, dir.file(std::string("d-") + format), 8, 33);
    ASSERT_TRUE(a.status.is_ok() && b.status.is_ok() && c.status.is_ok() && d.status.is_ok());
    auto tree_a = read_output_tree(dir.file(std::string("a-") + format));
    EXPECT_EQ(tree_a, read_output_tree(dir.file(std::string("b-") + format))) << format;
    EXPECT_EQ(tree_a, read_output_tree(dir.file(std::string("c-") + format))) << format;
    EXPECT_EQ(tree_a, read_output_tree(dir.file(std::string("d-") + format))) << format;
    EXPECT_GE(tree_a.size(), 6u * 2);  // kept + marker per shard at least
  }
}

TEST(Executor, PassThroughKeepsRecordsByteForByteInEveryFormat) {
  TempDir dir;
  std::mt19937 rng(3);
  std::string body;
  for (int i = 0; i < 300; ++i) body += make_doc_line(0, i, rng) + "\n";
  for (Compression in : {Compression::kNone, Compression::kGzip, Compression::kZstd}) {
    std::string input = dir.file("in" + std::string(format_extension(in)));
    write_file(input, compress(body, in));
    for (const char* format : {"jsonl", "jsonl.gz", "jsonl.zst"}) {
      std::string out = dir.file(std::string("out-") + std::string(compression_name(in)) + format);
      RunReport r = run(std::string("output: {format: ") + format + "}\n", {input}, out);
      ASSERT_TRUE(r.status.is_ok()) << r.status.message();
      std::string written = read_decompressed(
          out + "/in" + std::string(format_extension(*compression_from_format(format))));
      EXPECT_EQ(written, body) << compression_name(in) << " -> " << format;
    }
  }
}

TEST(Executor, FailPolicyStopsAndLeavesNoPartialShard) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 50);
  std::string bad = dir.file("zz-bad.jsonl");
  std::string body;
  for (int i = 0; i < 2000; ++i) body += "{\"text\": \"fine\"}\n";
  body += "{\"text\": oops}\n";
  write_file(bad, body);
  inputs.push_back(bad);
  RunReport r = run("on_error: fail\n", inputs, dir.file("out"), 2, 100);
  ASSERT_FALSE(r.status.is_ok());
  EXPECT_THAT(r.status.message(), HasSubstr(bad + ":2001:"));
  EXPECT_THAT(r.status.message(), HasSubstr("malformed JSON"));
  EXPECT_FALSE(fs::exists(dir.file("out/zz-bad.jsonl.zst")));
  EXPECT_FALSE(fs::exists(dir.file("out/_done/zz-bad.json")));
  for (const auto& entry : fs::recursive_directory_iterator(dir.file("out"))) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos)
        << "temporary file left: " << entry.path();
  }
}

TEST(Executor, ResumeAfterFailureGivesTheSameOutputAsOneCleanRun) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 6, 300);
  // Reference: one clean run.
  RunReport clean = run(kFilterPipeline, inputs, dir.file("clean"));
  ASSERT_TRUE(clean.status.is_ok());

  // Break shard 3 (truncate it), run under on_error: fail: some shards finish, then it stops.
  std::string good = read_file(inputs[3]);
  write_file(inputs[3], good.substr(0, good.size() / 2));
  std::string yaml = std::string(kFilterPipeline);
  yaml.replace(yaml.find("on_error: skip"), 14, "on_error: fail");
  std::string clean_yaml = yaml;
  RunReport broken = run(yaml, inputs, dir.file("resumed"), 1, 50);
  ASSERT_FALSE(broken.status.is_ok());

  // Repair the input and run again: finished shards are skipped, the rest redone.
  write_file(inputs[3], good);
  RunReport resumed = run(yaml, inputs, dir.file("resumed"), 2, 50);
  ASSERT_TRUE(resumed.status.is_ok()) << resumed.status.message();
  EXPECT_GT(resumed.skipped_files, 0u);
  RunReport reference = run(yaml, inputs, dir.file("reference"), 2, 50);
  EXPECT_EQ(read_output_tree(dir.file("resumed")), read_output_tree(dir.file("reference")));
  EXPECT_EQ(resumed.totals.documents, reference.totals.documents);
  EXPECT_EQ(resumed.totals.kept, reference.totals.kept);
  EXPECT_EQ(resumed.totals.dropped, reference.totals.dropped);
}

TEST(Executor, RerunSkipsCompletedShardsAndKeepsTotals) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 3, 100);
  RunReport first = run(kFilterPipeline, inputs, dir.file("out"));
  RunReport second = run(kFilterPipeline, inputs, dir.file("out"));
  ASSERT_TRUE(second.status.is_ok());
  EXPECT_EQ(second.skipped_files, 3u);
  EXPECT_EQ(second.totals.documents, first.totals.documents);
  EXPECT_EQ(second.totals.kept, first.totals.kept);
}

TEST(Executor, ChangedPipelineOverOldOutputNeedsOverwrite) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 50);
  ASSERT_TRUE(run(kFilterPipeline, inputs, dir.file("out")).status.is_ok());
  std::string changed = std::string(kFilterPipeline);
  changed.replace(changed.find("fraction: 0.7"), 13, "fraction: 0.5");
  std::string stats_before = read_file(dir.file("out/stats.json"));
  RunReport refused = run(changed, inputs, dir.file("out"));
  ASSERT_FALSE(refused.status.is_ok());
  EXPECT_EQ(read_file(dir.file("out/stats.json")), stats_before) << "a refused run rewrote stats";
  EXPECT_THAT(refused.status.message(), HasSubstr("--overwrite"));
  RunReport redone = run(changed, inputs, dir.file("out"), 2, 64, /*overwrite=*/true);
  EXPECT_TRUE(redone.status.is_ok()) << redone.status.message();
  EXPECT_EQ(redone.skipped_files, 0u);
}

TEST(Executor, MissingInputIsAClearError) {
  TempDir dir;
  RunReport r = run("{}\n", {dir.file("nope/*.jsonl")}, dir.file("out"));
  ASSERT_FALSE(r.status.is_ok());
  EXPECT_THAT(r.status.message(), HasSubstr("matches no file"));
}

}  // namespace
}  // namespace winnow::testing

namespace winnow::testing {
namespace {

TEST(Executor, OutputFolderInsideTheInputFolderIsNeverReadAsInput) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 40);
  std::string out = dir.file("out");  // inside the input folder
  RunReport first = run(kFilterPipeline, {dir.path()}, out);
  ASSERT_TRUE(first.status.is_ok()) << first.status.message();
  EXPECT_EQ(first.input_files, 2u);
  // The second run sees the same two inputs (not out/*.jsonl.zst) and finds them complete.
  RunReport second = run(kFilterPipeline, {dir.path()}, out);
  ASSERT_TRUE(second.status.is_ok()) << second.status.message();
  EXPECT_EQ(second.input_files, 2u);
  EXPECT_EQ(second.skipped_files, 2u);
}

}  // namespace
}  // namespace winnow::testing

namespace winnow::testing {
namespace {

TEST(Executor, RandomGarbageIsAccountedForAndNeverCorruptsOutput) {
  TempDir dir;
  std::mt19937 rng(11);
  const std::string alphabet = "abc\\\"\xc3\xa9\x01{}[]:, ";
  int expected_valid = 0;
  for (int f = 0; f < 6; ++f) {
    std::string body;
    for (int i = 0; i < 1500; ++i) {
      int kind = static_cast<int>(rng() % 3);
      if (kind == 0) {  // random bytes, newlines excluded so the line count stays known
        for (size_t n = rng() % 300; n > 0; --n) {
          char c = static_cast<char>(rng() % 256);
          body.push_back(c == '\n' ? ' ' : c);
        }
      } else if (kind == 1) {  // almost JSON
        body += "{\"text\": \"";
        for (size_t n = rng() % 60; n > 0; --n) body.push_back(alphabet[rng() % alphabet.size()]);
        body += "\"}";
      } else {
        body += "{\"text\":\"ok\",\"id\":" + std::to_string(i) + ",\"x\":[1,{\"y\":null}]}";
        ++expected_valid;
      }
      body.push_back('\n');
    }
    Compression c = static_cast<Compression>(f % 3);
    std::string data = compress(body, c);
    if (f == 4) data.resize(data.size() / 2);  // a truncated gzip stream too
    write_file(dir.file("g" + std::to_string(f) + std::string(format_extension(c))), data);
  }
  RunReport r = run("on_error: skip\noutput: {format: jsonl}\n", {dir.path()}, dir.file("out"));
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  EXPECT_TRUE(r.totals.reconciles());
  EXPECT_GT(r.totals.errors_total(), 0u);
  EXPECT_GE(r.totals.kept, static_cast<uint64_t>(expected_valid) - 1500);  // minus the cut file
  // Whatever was kept is valid JSON with a string text.
  simdjson::dom::parser parser;
  uint64_t kept_lines = 0;
  for (const auto& entry : fs::directory_iterator(dir.file("out"))) {
    if (!entry.is_regular_file() || entry.path().extension() != ".jsonl" ||
        entry.path().filename() == "metrics.jsonl")
      continue;
    for (const std::string& line : split_lines(read_file(entry.path().string()))) {
      simdjson::dom::element doc;
      ASSERT_FALSE(parser.parse(line).get(doc)) << line;
      std::string_view text;
      EXPECT_FALSE(doc["text"].get(text)) << line;
      ++kept_lines;
    }
  }
  EXPECT_EQ(kept_lines, r.totals.kept);
}

}  // namespace
}  // namespace winnow::testing

namespace winnow::testing {
namespace {

TEST(Executor, KeptOutputSplitsIntoPartsAtDocumentBoundaries) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 500);
  std::string single_yaml = "output: {format: jsonl}\n";
  std::string parts_yaml = "output: {format: jsonl, max_file_bytes: 20000}\n";
  ASSERT_TRUE(run(single_yaml, inputs, dir.file("single")).status.is_ok());
  RunReport a = run(parts_yaml, inputs, dir.file("parts-a"), 1, 7);
  RunReport b = run(parts_yaml, inputs, dir.file("parts-b"), 4, 500);
  ASSERT_TRUE(a.status.is_ok() && b.status.is_ok()) << a.status.message();
  // The cuts depend on the documents only, not on threads or batch sizes.
  EXPECT_EQ(read_output_tree(dir.file("parts-a")), read_output_tree(dir.file("parts-b")));

  for (std::string stem : {"part-0", "part-1"}) {
    std::string joined;
    int parts = 0;
    for (;; ++parts) {
      std::string part = dir.file("parts-a/" + stem + fmt::format("-p{:05}.jsonl", parts));
      if (!fs::exists(part)) break;
      std::string bytes = read_file(part);
      ASSERT_FALSE(bytes.empty());
      // At most the limit, unless a single document is larger on its own.
      if (split_lines(bytes).size() > 1) {
        EXPECT_LE(bytes.size(), 20000u) << part;
      }
      ASSERT_EQ(bytes.back(), '\n') << "a part ends inside a document: " << part;
      joined += bytes;
    }
    EXPECT_GT(parts, 3) << stem;
    EXPECT_EQ(joined, read_file(dir.file("single/" + stem + ".jsonl"))) << stem;
  }

  // --overwrite removes the parts along with the rest.
  RunReport again = run(single_yaml, inputs, dir.file("parts-a"), 2, 64, /*overwrite=*/true);
  ASSERT_TRUE(again.status.is_ok()) << again.status.message();
  EXPECT_FALSE(fs::exists(dir.file("parts-a/part-0-p00000.jsonl")));
  EXPECT_EQ(read_output_tree(dir.file("parts-a")), read_output_tree(dir.file("single")));
}

}  // namespace
}  // namespace winnow::testing
