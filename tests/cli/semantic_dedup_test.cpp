// semantic_dedup end to end through the `winnow` binary: seeded embeddings with planted
// near-copies in three shards; the same output and duplicates table for any thread count,
// batch size and memory budget (a tiny one spills the embedding log); a killed run resumes to
// the same output; stats.json and report.html carry the sweep; the example in examples/ runs.
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
#include "dedup/planted_embeddings.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// Three shards; 0.999 copies (to remove at eps 0.01) and 0.9 copies (to keep).
size_t write_corpus(const std::string& dir) {
  fs::create_directories(dir);
  Planted p = plant(3000, 96, {0.999, 0.9}, 100, 17);
  std::string shards[3];
  for (size_t i = 0; i < p.rows.size(); ++i) {
    std::string line = "{\"id\":\"e" + std::to_string(i) + "\",\"text\":\"item " +
                       std::to_string(i) + "\",\"embedding\":" + embedding_json(p.rows[i]) + "}\n";
    shards[i % 3] += line;
  }
  for (int s = 0; s < 3; ++s) write_file(dir + "/shard-" + std::to_string(s) + ".jsonl", shards[s]);
  return p.rows.size();
}

std::string pipeline(const TempDir& dir, const std::string& name, const std::string& extra) {
  std::string path = dir.file(name + ".yaml");
  write_file(path,
             "stages:\n"
             "  - stage: semantic_dedup\n"
             "    n_clusters: 10\n"
             "    eps_sweep: ['0.001', '0.01', '0.05', '0.2']\n" +
                 extra);
  return path;
}

class SemanticDedupCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    items_ = write_corpus(dir_->file("in"));
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string input() { return " -i " + dir_->file("in"); }
  static TempDir* dir_;
  static size_t items_;
};
TempDir* SemanticDedupCli::dir_ = nullptr;
size_t SemanticDedupCli::items_ = 0;

TEST_F(SemanticDedupCli, RemovesThePlantedCopiesAndReportsTheSweep) {
  std::string out;
  std::string p = pipeline(*dir_, "basic", "");
  ASSERT_EQ(winnow("run " + p + input() + " -o " + dir_->file("basic") + " -t 2 2>&1", &out), 0)
      << out;
  EXPECT_THAT(out, HasSubstr("reconciled"));
  EXPECT_THAT(out, HasSubstr("eps sweep"));
  simdjson::dom::parser parser;
  simdjson::dom::element s = parser.load(dir_->file("basic/stats.json"));
  uint64_t removed =
      s["totals"]["dropped_by_reason"]["semantic_dedup/semantic_duplicate"].get_uint64().value();
  // 100 copies at 0.999 (one of each pair goes), none of the 100 at 0.9.
  EXPECT_GE(removed, 99u);
  EXPECT_LE(removed, 101u);
  auto step = s["global_steps"]["semantic_dedup"];
  EXPECT_EQ(step["to_remove"].get_uint64().value(), removed);
  EXPECT_EQ(step["clusters"].get_uint64().value(), 10u);
  EXPECT_GT(step["inertia"].get_double().value(), 0.0);
  EXPECT_EQ(step["parameters"]["max_points_per_centroid"].get_uint64().value(), 256u);
  simdjson::dom::array sweep = step["eps_sweep"].get_array().value();
  EXPECT_EQ(sweep.size(), 4u);
  double previous = 2;
  for (simdjson::dom::element point : sweep) {  // kept fraction falls as eps grows
    double kept = point["kept_fraction"].get_double().value();
    EXPECT_LE(kept, previous);
    previous = kept;
  }
  std::string table = read_file(dir_->file("basic/global/semantic_dedup/duplicates.jsonl"));
  EXPECT_THAT(table, HasSubstr("\"matched_id\":\"e"));
  EXPECT_THAT(table, HasSubstr("\"similarity\":0.99"));
  std::string rejected;
  for (const auto& entry : fs::directory_iterator(dir_->file("basic/rejected"))) {
    rejected += read_decompressed(entry.path().string());
  }
  EXPECT_THAT(rejected, HasSubstr("\"reason\":\"semantic_duplicate\""));
  EXPECT_THAT(rejected, HasSubstr("\"semantic_dedup_cluster\":"));
  std::string report = read_file(dir_->file("basic/report.html"));
  EXPECT_THAT(report, HasSubstr("<svg class=\"eps-sweep\""));
  EXPECT_THAT(report, HasSubstr("removed pairs nearest the threshold"));
}

TEST_F(SemanticDedupCli, SameOutputForAnyThreadsBatchSizeAndMemoryBudget) {
  std::string out;
  std::string p = pipeline(*dir_, "det", "");
  ASSERT_EQ(winnow("run " + p + input() + " -q -o " + dir_->file("t1") + " -t 1", &out), 0) << out;
  auto expected = result_tree(dir_->file("t1"));
  ASSERT_TRUE(expected.count("global/semantic_dedup/duplicates.jsonl"));
  for (const char* args : {"-t 2 --batch-size 7", "-t 4 --batch-size 1000"}) {
    std::string target = dir_->file(std::string("t-") + args);
    ASSERT_EQ(winnow("run " + p + input() + " -q -o '" + target + "' " + args, &out), 0) << out;
    EXPECT_TRUE(result_tree(target) == expected) << args;
  }
  // 1 MB for the embedding log: it spills to disk, and nothing changes.
  std::string small = pipeline(*dir_, "small", "    memory_mb: 1\n    partitions: 3\n");
  ASSERT_EQ(winnow("run " + small + input() + " -q -o " + dir_->file("small") + " -t 3", &out), 0)
      << out;
  EXPECT_TRUE(result_tree(dir_->file("small")) == expected);
  simdjson::dom::parser parser;
  auto run =
      parser.load(dir_->file("small/stats.json"))["global_steps"]["semantic_dedup"]["identify_run"];
  EXPECT_GT(run["embedding_log_spilled_bytes"].get_uint64().value(), 0u);
  EXPECT_FALSE(fs::exists(dir_->file("small/global/semantic_dedup/_spill")));
}

TEST_F(SemanticDedupCli, KilledRunResumesToTheSameResult) {
  std::string out;
  std::string p = pipeline(*dir_, "kill", "");
  std::string args = "run " + p + input() + " -q -t 1 -o ";
  ASSERT_EQ(winnow(args + dir_->file("clean"), &out), 0) << out;
  auto expected = read_output_tree(dir_->file("clean"));
  int interrupted = 0;
  for (int delay_ms : {30, 120, 300}) {
    std::string target = dir_->file("killed-" + std::to_string(delay_ms));
    kill_midway(args + target, delay_ms);
    interrupted += !fs::exists(target + "/stats.json");
    ASSERT_EQ(winnow(args + target, &out), 0) << out;
    EXPECT_TRUE(read_output_tree(target) == expected) << "after a kill at " << delay_ms << " ms";
  }
  EXPECT_GT(interrupted, 0) << "every kill came after the run had finished";
}

TEST_F(SemanticDedupCli, OneClusterEqualsANumpyAllPairsReference) {
  if (run_command("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0) {
    GTEST_SKIP() << "no numpy for /usr/bin/python3";
  }
  // One shard (input order = key order), 1,067 items with 0.999 and 0.9 copies.
  fs::create_directories(dir_->file("one-shard"));
  fs::copy_file(dir_->file("in/shard-0.jsonl"), dir_->file("one-shard/shard-0.jsonl"),
                fs::copy_options::overwrite_existing);
  for (const char* ranking : {"hard", "easy"}) {
    std::string out;
    std::string target = dir_->file(std::string("numpy-") + ranking);
    std::string p = dir_->file(std::string("numpy-") + ranking + ".yaml");
    write_file(p,
               "stages:\n  - stage: semantic_dedup\n    n_clusters: 1\n"
               "    max_points_per_centroid: 100000\n    ranking: " +
                   std::string(ranking) + "\n    eps_sweep: ['0.0005', '0.01', '0.05', '0.15']\n");
    ASSERT_EQ(winnow("run " + p + " -i " + dir_->file("one-shard") + " -q -o " + target, &out), 0)
        << out;
    EXPECT_EQ(run_command("/usr/bin/python3 " + kSource + "/tests/cli/semantic_reference.py " +
                              dir_->file("one-shard/shard-0.jsonl") + " " + target + " " + ranking,
                          &out),
              0)
        << ranking << ": " << out;
  }
}

TEST(SemanticDedupExample, RemovesNearCopiesOfTheMachinesLicenceTexts) {
  TempDir dir;
  std::string out;
  ASSERT_EQ(run_command(
                kSource + "/scripts/make_semantic_corpus " + dir.file("corpus") + " --max-docs 300",
                &out),
            0)
      << out;
  ASSERT_EQ(winnow("run " + kSource + "/examples/semantic_dedup.yaml -i " + dir.file("corpus") +
                       " -o " + dir.file("out") + " 2>&1",
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("reconciled"));
  std::string stats = dir.file("out/stats.json");
  EXPECT_GT(stats_total(stats, "dropped"), 0u);
  EXPECT_GT(stats_total(stats, "kept"), 100u);
}

}  // namespace
}  // namespace winnow::testing
