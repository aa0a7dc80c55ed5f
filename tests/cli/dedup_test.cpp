// End-to-end tests of exact_dedup and fuzzy_dedup through the `winnow` binary: a corpus of real
// texts of this machine with planted exact copies and near-duplicates; the same duplicates
// table and output for any thread count, batch size and memory budget (a tiny one spills);
// `dedup identify` + `dedup remove` equal one `run`; a killed run resumes to the same result.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <simdjson.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "core/json_text.h"
#include "dedup/planted_texts.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

int winnow(const std::string& args, std::string* output) {
  return run_command(kWinnow + " " + args + " 2>&1", output);
}

// `shards` zstd JSONL shards: windows of real texts, about 8% near-duplicates (a few random
// edits of an earlier document, possibly in another shard) and 4% exact copies.
struct Corpus {
  size_t documents = 0;
  size_t planted_near = 0;
  size_t planted_exact = 0;
};

Corpus write_planted_corpus(const std::string& dir, int shards, int docs_per_shard, size_t chars,
                            unsigned seed) {
  fs::create_directories(dir);
  std::vector<std::string> texts = machine_texts(chars);
  std::mt19937_64 rng(seed);
  std::vector<std::string> made;
  Corpus corpus;
  for (int s = 0; s < shards; ++s) {
    std::string body;
    for (int i = 0; i < docs_per_shard; ++i) {
      std::string text;
      int kind = static_cast<int>(rng() % 100);
      if (kind < 8 && !made.empty()) {
        text = edit_text(made[rng() % made.size()], 1 + static_cast<int>(rng() % 3), rng);
        ++corpus.planted_near;
      } else if (kind < 12 && !made.empty()) {
        text = made[rng() % made.size()];
        ++corpus.planted_exact;
      } else {
        text = window(texts[rng() % texts.size()], chars, rng);
        text = edit_text(text, 40, rng);  // unrelated to other windows of the same text
      }
      made.push_back(text);
      std::string line = "{\"id\":\"s" + std::to_string(s) + "-" + std::to_string(i) +
                         "\",\"quality\":" + std::to_string(rng() % 100) + ",\"text\":";
      append_json_string(line, text);
      body += line + "}\n";
      ++corpus.documents;
    }
    write_file(dir + "/shard-" + std::to_string(s) + ".jsonl.zst",
               compress(body, Compression::kZstd));
  }
  return corpus;
}

std::string pipeline(const TempDir& dir, const std::string& name, const std::string& fuzzy_extra) {
  std::string path = dir.file(name + ".yaml");
  write_file(path,
             "output: {format: jsonl.zst}\n"
             "stages:\n"
             "  - stage: text_length\n    min_chars: 100\n"
             "  - stage: exact_dedup\n"
             "  - stage: fuzzy_dedup\n" +
                 fuzzy_extra);
  return path;
}

// result_tree with zstd files decompressed (their bytes compared as text).
std::map<std::string, std::string> decompressed_result_tree(const std::string& dir) {
  auto tree = result_tree(dir);
  for (auto& [name, bytes] : tree) {
    if (name.ends_with(".zst")) bytes = read_decompressed(dir + "/" + name);
  }
  return tree;
}

simdjson::dom::element stats(const std::string& out, simdjson::dom::parser& parser) {
  return parser.load(out + "/stats.json");
}

class DedupCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    corpus_ = write_planted_corpus(dir_->file("in"), 6, 500, 1500, 5);
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string input() { return " -i " + dir_->file("in"); }
  static TempDir* dir_;
  static Corpus corpus_;
};
TempDir* DedupCli::dir_ = nullptr;
Corpus DedupCli::corpus_;

TEST_F(DedupCli, FindsThePlantedDuplicatesAndReconciles) {
  std::string out;
  std::string p = pipeline(*dir_, "basic", "");
  ASSERT_EQ(winnow("run " + p + input() + " -o " + dir_->file("basic") + " -t 2", &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("reconciled"));
  EXPECT_THAT(out, HasSubstr("groups of near-duplicates"));
  EXPECT_THAT(out, HasSubstr("P(caught) by Jaccard: 0.50:0.2%"));
  simdjson::dom::parser parser;
  auto s = stats(dir_->file("basic"), parser);
  uint64_t exact =
      s["totals"]["dropped_by_reason"]["exact_dedup/exact_duplicate"].get_uint64().value();
  uint64_t fuzzy =
      s["totals"]["dropped_by_reason"]["fuzzy_dedup/fuzzy_duplicate"].get_uint64().value();
  // Exact copies all go (some copies of planted near-duplicates too); the few-edit
  // near-duplicates are far above the 20 x 13 threshold.
  EXPECT_GE(exact, corpus_.planted_exact);
  EXPECT_GE(fuzzy, corpus_.planted_near * 95 / 100);
  EXPECT_LE(exact + fuzzy, corpus_.planted_exact + corpus_.planted_near + 10);
  EXPECT_TRUE(s["reconciles"].get_bool().value());
  EXPECT_GT(s["global_steps"]["fuzzy_dedup"]["component_sizes"]["2"].get_uint64().value(), 0u);
  // Rejected near-duplicates carry their component id.
  std::string rejected = read_decompressed(dir_->file("basic/rejected/shard-3.jsonl.zst"));
  EXPECT_THAT(rejected, HasSubstr("\"fuzzy_dedup_component\":"));
  EXPECT_THAT(rejected, HasSubstr("\"reason\":\"fuzzy_duplicate\""));
  std::string table = read_file(dir_->file("basic/global/fuzzy_dedup/duplicates.jsonl"));
  EXPECT_THAT(table, HasSubstr("\"survivor\":true"));
}

TEST_F(DedupCli, SameResultForAnyThreadsBatchSizeAndMemoryBudget) {
  std::string out;
  std::string p = pipeline(*dir_, "det", "");
  ASSERT_EQ(winnow("run " + p + input() + " -q -o " + dir_->file("t1") + " -t 1", &out), 0) << out;
  auto expected = decompressed_result_tree(dir_->file("t1"));
  ASSERT_TRUE(expected.count("global/fuzzy_dedup/duplicates.jsonl"));
  for (const char* args : {"-t 2 --batch-size 7", "-t 4 --batch-size 1000", "-t 3"}) {
    std::string target = dir_->file(std::string("t-") + args);
    ASSERT_EQ(winnow("run " + p + input() + " -q -o '" + target + "' " + args, &out), 0) << out;
    EXPECT_TRUE(decompressed_result_tree(target) == expected) << args;
  }
  // 1 MB of memory for bucket records: they spill to disk, and nothing changes.
  std::string small = pipeline(*dir_, "small", "    memory_mb: 1\n    partitions: 3\n");
  ASSERT_EQ(winnow("run " + small + input() + " -q -o " + dir_->file("small") + " -t 2", &out), 0)
      << out;
  EXPECT_TRUE(decompressed_result_tree(dir_->file("small")) == expected);
  simdjson::dom::parser parser;
  auto run = stats(dir_->file("small"), parser)["global_steps"]["fuzzy_dedup"]["identify_run"];
  EXPECT_GT(run["spill_flushes"].get_uint64().value(), 0u);
  EXPECT_GT(run["spilled_bytes"].get_uint64().value(), 1u << 20);
  EXPECT_FALSE(fs::exists(dir_->file("small/global/fuzzy_dedup/_spill")));
}

TEST_F(DedupCli, IdentifyThenRemoveEqualsOneRun) {
  std::string out;
  std::string p = pipeline(*dir_, "split", "    table_format: binary\n");
  ASSERT_EQ(winnow("run " + p + input() + " -q -o " + dir_->file("one"), &out), 0) << out;
  std::string two = dir_->file("two");
  EXPECT_EQ(winnow("dedup remove " + p + input() + " -q -o " + two, &out), 1);
  EXPECT_THAT(out, HasSubstr("run `winnow dedup identify` first"));
  ASSERT_EQ(winnow("dedup identify " + p + input() + " -o " + two, &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("identify only: no document written"));
  EXPECT_THAT(out, HasSubstr("table: " + two + "/global/fuzzy_dedup/duplicates.bin"));
  EXPECT_TRUE(fs::exists(two + "/global/fuzzy_dedup/duplicates.bin"));
  EXPECT_FALSE(fs::exists(two + "/shard-0.jsonl.zst"));
  ASSERT_EQ(winnow("dedup remove " + p + input() + " -o " + two, &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("identify result reused"));
  EXPECT_TRUE(read_output_tree(two) == read_output_tree(dir_->file("one")));
  // A pipeline without dedup has nothing to identify.
  std::string plain = dir_->file("plain.yaml");
  write_file(plain, "stages:\n  - stage: text_length\n    min_chars: 1\n");
  EXPECT_EQ(winnow("dedup identify " + plain + input() + " -q -o " + dir_->file("plain"), &out), 1);
}

TEST_F(DedupCli, JaccardVerificationRunsASecondPassAndStaysDeterministic) {
  std::string out;
  std::string p = pipeline(*dir_, "verify", "    jaccard_threshold: 0.8\n");
  ASSERT_EQ(winnow("run " + p + input() + " -o " + dir_->file("v1") + " -t 1", &out), 0) << out;
  ASSERT_EQ(winnow("run " + p + input() + " -q -o " + dir_->file("v3") + " -t 3", &out), 0) << out;
  EXPECT_TRUE(decompressed_result_tree(dir_->file("v1")) ==
              decompressed_result_tree(dir_->file("v3")));
  simdjson::dom::parser parser;
  auto s = stats(dir_->file("v1"), parser);
  uint64_t fuzzy =
      s["totals"]["dropped_by_reason"]["fuzzy_dedup/fuzzy_duplicate"].get_uint64().value();
  EXPECT_GE(fuzzy, corpus_.planted_near * 95 / 100);
  EXPECT_EQ(
      s["global_steps"]["fuzzy_dedup"]["parameters"]["jaccard_threshold"].get_double().value(),
      0.8);
}

// materialize: the first identify pass stores its batches before exact_dedup; the fuzzy
// identify passes (two: Jaccard verification) and the writing pass begin from them, so
// text_length and the parsing run once. The output is the same whether batches are stored or not.
TEST_F(DedupCli, StoringBatchesBetweenPassesRunsEachStageOnceAndChangesNothing) {
  std::string out;
  auto with_mode = [&](const std::string& mode) {
    std::string path = dir_->file("materialize-" + mode + ".yaml");
    write_file(path, "materialize: " + mode + "\n" + read_file(pipeline(*dir_, "base-" + mode,
                                                                           "    jaccard_threshold: 0.8\n")));
    return path;
  };
  ASSERT_EQ(winnow("run " + with_mode("never") + input() + " -q -o " + dir_->file("m-never") +
                       " -t 2",
                   &out),
            0)
      << out;
  auto expected = decompressed_result_tree(dir_->file("m-never"));
  for (const char* mode : {"always", "auto"}) {
    for (const char* threads : {"1", "3"}) {
      std::string target = dir_->file(std::string("m-") + mode + threads);
      ASSERT_EQ(winnow("run " + with_mode(mode) + input() + " -q -o " + target + " -t " + threads,
                       &out),
                0)
          << out;
      EXPECT_TRUE(decompressed_result_tree(target) == expected) << mode << " " << threads;
      EXPECT_FALSE(fs::exists(target + "/_work")) << "stored batches left behind";
    }
  }
  simdjson::dom::parser parser;
  auto passes = stats(dir_->file("m-always1"), parser)["passes"].get_array().value();
  std::vector<std::string> described;
  for (simdjson::dom::element pass : passes) {
    std::string name(pass["name"].get_string().value());
    described.push_back(name + " from " + std::string(pass["origin"].get_string().value()));
    simdjson::dom::object busy = pass["busy_seconds"].get_object().value();
    bool ran_length = busy["text_length"].error() == simdjson::SUCCESS;
    bool parsed = busy["parse"].error() == simdjson::SUCCESS;
    EXPECT_EQ(ran_length, name == "identify exact_dedup") << name;
    EXPECT_EQ(parsed, name == "identify exact_dedup") << name;
    EXPECT_EQ(bool(pass["stored"].get_bool().value()), name == "identify exact_dedup") << name;
  }
  const std::string stored = "the batches stored before 'exact_dedup'";
  EXPECT_EQ(described, (std::vector<std::string>{
                           "identify exact_dedup from the input",
                           "identify fuzzy_dedup from " + stored,
                           "identify fuzzy_dedup (pass 2) from " + stored, "write from " + stored}));
  // With never, every pass reads the input and runs text_length again.
  auto never = stats(dir_->file("m-never"), parser)["passes"].get_array().value();
  for (simdjson::dom::element pass : never) {
    EXPECT_EQ(std::string_view(pass["origin"].get_string().value()), "the input");
  }
}

TEST_F(DedupCli, OnePermutationSchemeFindsThePlantedDuplicates) {
  std::string out;
  std::string p = pipeline(*dir_, "oph", "    scheme: one_permutation\n");
  ASSERT_EQ(winnow("run " + p + input() + " -o " + dir_->file("oph"), &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("MinHash (one permutation, densified)"));
  simdjson::dom::parser parser;
  auto s = stats(dir_->file("oph"), parser);
  uint64_t fuzzy =
      s["totals"]["dropped_by_reason"]["fuzzy_dedup/fuzzy_duplicate"].get_uint64().value();
  EXPECT_GE(fuzzy, corpus_.planted_near * 95 / 100);
  EXPECT_LE(fuzzy, corpus_.planted_near + 10);
}

TEST_F(DedupCli, KilledRunResumesToTheSameResult) {
  std::string out;
  std::string p = pipeline(*dir_, "kill", "");
  std::string args = "run " + p + input() + " -q -t 1 -o ";
  ASSERT_EQ(winnow(args + dir_->file("clean"), &out), 0) << out;
  auto expected = read_output_tree(dir_->file("clean"));
  // Kills land in the exact identify pass, the fuzzy one or the final pass.
  int interrupted = 0;
  for (int delay_ms : {60, 250, 600, 1000}) {
    std::string target = dir_->file("killed-" + std::to_string(delay_ms));
    kill_midway(args + target, delay_ms);
    bool exact_done = fs::exists(target + "/global/exact_dedup/_complete.json");
    bool fuzzy_done = fs::exists(target + "/global/fuzzy_dedup/_complete.json");
    size_t shards_done = 0;
    if (fs::exists(target + "/_done")) {
      for (const auto& e : fs::directory_iterator(target + "/_done")) shards_done += e.exists();
    }
    interrupted += !fs::exists(target + "/stats.json");
    std::printf("  killed at %d ms: exact identify %s, fuzzy identify %s, %zu of 6 shards done\n",
                delay_ms, exact_done ? "complete" : "not complete",
                fuzzy_done ? "complete" : "not complete", shards_done);
    ASSERT_EQ(winnow(args + target, &out), 0) << out;
    EXPECT_TRUE(read_output_tree(target) == expected) << "after a kill at " << delay_ms << " ms";
  }
  EXPECT_GT(interrupted, 0) << "every kill came after the run had finished";
}

TEST(DedupExample, ReportsTheDuplicatesInTheMachinesLicenceTexts) {
  TempDir dir;
  std::string out;
  ASSERT_EQ(run_command(kSource + "/scripts/make_example_corpus " + dir.file("corpus"), &out), 0)
      << out;
  ASSERT_EQ(winnow("run " + kSource + "/examples/example.yaml -i " + dir.file("corpus") + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("groups of exact duplicates"));
  EXPECT_THAT(out, HasSubstr("groups of near-duplicates"));
  simdjson::dom::parser parser;
  auto s = stats(dir.file("out"), parser);
  EXPECT_GT(s["global_steps"]["exact_dedup"]["to_remove"].get_uint64().value(), 0u);
  EXPECT_GT(s["global_steps"]["fuzzy_dedup"]["to_remove"].get_uint64().value(), 0u);
  EXPECT_TRUE(fs::exists(dir.file("out/global/fuzzy_dedup/duplicates.jsonl")));
}

}  // namespace
}  // namespace winnow::testing
