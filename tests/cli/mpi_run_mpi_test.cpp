// `winnow run` under mpirun (the mpi label): the same output, byte for byte, from one process
// without MPI and from mpirun -np 1, 2, 3 and 4, for the NeMo English example, the example
// with exact and fuzzy dedup and the one with semantic dedup, on this machine's example corpus
// (whose duplicates sit in different shards, so on different ranks). A failure on one rank
// stops every rank with a message naming it; a rank killed mid-run fails the job, leaves
// nothing half-written under a final name, and a rerun on another rank count completes it
// identically. Skipped when winnow was built without MPI.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <simdjson.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "dist/mpi_launch.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::kMpiAvailable;
using testing::mpirun;
using testing::read_output_tree;
using testing::run_command;

class MpiRun : public testing::ExampleCorpusTest {
 protected:
  void SetUp() override {
    if (!kMpiAvailable) GTEST_SKIP() << "winnow was built without MPI";
  }
  static std::string example(const std::string& name) {
    return testing::kSource + "/examples/" + name + ".yaml";
  }
  // `winnow run` on `ranks` ranks (0: one process without mpirun) into OUT; returns the code.
  static int run_on(int ranks, const std::string& pipeline, const std::string& input,
                    const std::string& out, const std::string& extra = "",
                    std::string* printed = nullptr) {
    std::string command = (ranks > 0 ? mpirun(ranks) + " " : std::string()) + testing::kWinnow +
                          " run " + pipeline + " -i " + input + " -o " + out +
                          " --no-progress -q " + (ranks > 0 ? "-t 1 " : "-t 2 ") + extra;
    std::string local;
    return run_command(command, printed ? printed : &local);
  }
  // Every rank count gives the one-process output.
  void expect_same_on_any_rank_count(const std::string& pipeline) {
    const std::string base = dir_->file(fs::path(pipeline).stem().string());
    ASSERT_EQ(run_on(0, pipeline, dir_->file("corpus"), base + "-alone"), 0);
    const auto expected = read_output_tree(base + "-alone");
    ASSERT_GT(expected.size(), 8u);
    for (int ranks : {1, 2, 3, 4}) {
      const std::string out = base + "-np" + std::to_string(ranks);
      std::string printed;
      ASSERT_EQ(run_on(ranks, pipeline, dir_->file("corpus"), out, "", &printed), 0) << printed;
      EXPECT_TRUE(read_output_tree(out) == expected) << pipeline << " on " << ranks << " ranks";
      simdjson::dom::parser parser;
      EXPECT_EQ(int64_t(parser.load(out + "/stats.json")["ranks"]), ranks);
    }
  }
};

TEST_F(MpiRun, NemoEnglishIsTheSameOnAnyRankCount) {
  expect_same_on_any_rank_count(example("nemo_english"));
}

TEST_F(MpiRun, ExactAndFuzzyDedupAreTheSameOnAnyRankCount) {
  expect_same_on_any_rank_count(example("example"));
  // The duplicates cross ranks: with 4 shards on 4 ranks each rank reads one, and groups hold
  // documents of several shards.
  std::map<uint64_t, std::set<uint64_t>> shards_of_group;
  simdjson::dom::parser parser;
  const std::string table =
      testing::read_file(dir_->file("example-np4") + "/global/exact_dedup/duplicates.jsonl");
  for (const std::string& line : testing::split_lines(table)) {
    if (line.empty()) continue;
    simdjson::dom::element row = parser.parse(line);
    shards_of_group[uint64_t(row["component"])].insert(uint64_t(row["shard"]));
  }
  size_t crossing = 0;
  for (const auto& [group, shards] : shards_of_group) crossing += shards.size() > 1;
  EXPECT_GT(crossing, 10u) << table.substr(0, 500);
  // The shuffle's volume is in stats.json, by rank.
  auto run = parser.load(dir_->file("example-np4") + "/stats.json")["global_steps"]["fuzzy_dedup"]
                ["identify_run"];
  EXPECT_EQ(simdjson::dom::array(run["shuffle_bytes_by_rank"]).size(), 4u);
}

// The exact + fuzzy example with the exact-Jaccard check: verification sets travel only to
// the ranks holding the links they decide.
TEST_F(MpiRun, FuzzyDedupWithJaccardThresholdIsTheSameOnAnyRankCount) {
  std::string pipeline = testing::read_file(example("example"));
  const size_t at = pipeline.find("  - stage: fuzzy_dedup\n");
  ASSERT_NE(at, std::string::npos);
  pipeline.insert(at + std::string("  - stage: fuzzy_dedup\n").size(),
                  "    jaccard_threshold: 0.8\n");
  testing::write_file(dir_->file("jaccard.yaml"), pipeline);
  expect_same_on_any_rank_count(dir_->file("jaccard.yaml"));
  simdjson::dom::parser parser;
  auto run = parser.load(dir_->file("jaccard-np3") + "/stats.json")["global_steps"]["fuzzy_dedup"]
                ["identify_run"];
  EXPECT_EQ(simdjson::dom::array(run["links_by_rank"]).size(), 3u);
  EXPECT_GT(uint64_t(run["propagation_rounds"]), 0u);
}

TEST_F(MpiRun, SemanticDedupIsTheSameOnAnyRankCount) {
  expect_same_on_any_rank_count(example("embed_semantic_dedup"));
}

TEST_F(MpiRun, AFailureOnOneRankStopsEveryRankNamingIt) {
  // Four shards: three real ones and a small one with a malformed second line.
  const std::string input = dir_->file("bad-input");
  fs::create_directories(input);
  for (int i = 0; i < 3; ++i) {
    fs::copy_file(dir_->file("corpus") + "/shard-0000" + std::to_string(i) + ".jsonl.zst",
                  input + "/shard-" + std::to_string(i) + ".jsonl.zst");
  }
  testing::write_file(input + "/shard-3.jsonl",
                      "{\"id\":\"a\",\"text\":\"fine\"}\n{\"text\": broken\n");
  std::string printed;
  EXPECT_EQ(run_on(3, example("example"), input, dir_->file("bad-out"), "--on-error fail",
                   &printed),
            1);
  // The smallest shard is handed out last (largest first), to whichever rank asks then; the
  // message names that rank and the file and line.
  EXPECT_THAT(printed, ::testing::ContainsRegex("winnow: rank [0-2]: " + input +
                                                "/shard-3.jsonl:2: malformed JSON"));
  EXPECT_THAT(printed, ::testing::Not(HasSubstr("rank 0: rank")));
  // Under skip the bad line is an error record, as in one process.
  ASSERT_EQ(run_on(0, example("example"), input, dir_->file("skip-alone"), "--on-error skip"), 0);
  ASSERT_EQ(run_on(3, example("example"), input, dir_->file("skip-np3"), "--on-error skip"), 0);
  EXPECT_TRUE(read_output_tree(dir_->file("skip-np3")) ==
              read_output_tree(dir_->file("skip-alone")));
}

// The winnow processes mpirun started (its children).
std::vector<pid_t> ranks_of(pid_t mpirun_pid) {
  std::string out;
  run_command("pgrep -P " + std::to_string(mpirun_pid) + " -x winnow", &out);
  std::vector<pid_t> pids;
  for (const std::string& line : testing::split_lines(out)) {
    if (!line.empty()) pids.push_back(static_cast<pid_t>(std::stol(line)));
  }
  return pids;
}

TEST_F(MpiRun, ARankKilledMidRunFailsTheJobAndARerunOnOtherRanksCompletesIt) {
  // Eight shards (the corpus twice), so a rank still has shards to write after its first.
  const std::string input = dir_->file("eight");
  fs::create_directories(input);
  for (int copy = 0; copy < 2; ++copy) {
    for (int i = 0; i < 4; ++i) {
      fs::copy_file(dir_->file("corpus") + "/shard-0000" + std::to_string(i) + ".jsonl.zst",
                    input + "/" + std::string(1, static_cast<char>('a' + copy)) + "-" +
                        std::to_string(i) + ".jsonl.zst");
    }
  }
  const std::string pipeline = example("example");
  ASSERT_EQ(run_on(0, pipeline, input, dir_->file("eight-alone")), 0);
  const auto expected = read_output_tree(dir_->file("eight-alone"));

  const std::string out = dir_->file("eight-killed");
  const std::string command = mpirun(2) + " " + testing::kWinnow + " run " + pipeline + " -i " +
                              input + " -o " + out + " --no-progress -q -t 1";
  pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", ("exec " + command + " >/dev/null 2>&1").c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  // Kill rank processes once the first shard is complete: the writing pass is under way.
  bool killed = false;
  for (int i = 0; i < 20000 && !killed; ++i) {
    std::error_code ec;
    if (fs::exists(out + "/_done") && !fs::is_empty(out + "/_done", ec)) {
      std::vector<pid_t> ranks = ranks_of(pid);
      if (!ranks.empty()) {
        kill(ranks.back(), SIGKILL);
        killed = true;
      }
    }
    if (!killed) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(killed);
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the job must fail";
  // Nothing half-written under a final name: every file there is the one the finished output
  // has, byte for byte (a shard whose marker is missing is redone); the rest are temporary
  // names (".NAME.tmp-PID") and scratch (_work/, _spill/), which the next run removes.
  size_t markers = 0;
  for (const auto& [name, bytes] : read_output_tree(out)) {
    const std::string file = fs::path(name).filename().string();
    if (file.starts_with(".") && file.find(".tmp-") != std::string::npos) continue;
    if (name.starts_with("_work/") || name.find("/_spill/") != std::string::npos) continue;
    auto it = expected.find(name);
    ASSERT_TRUE(it != expected.end()) << name << " is not in the finished output";
    EXPECT_TRUE(it->second == bytes) << name << " differs from the finished output's";
    markers += name.starts_with("_done/");
  }
  EXPECT_LT(markers, 8u);
  // A rerun on three ranks resumes and ends with the one-process output.
  std::string printed;
  ASSERT_EQ(run_on(3, pipeline, input, out, "", &printed), 0) << printed;
  EXPECT_TRUE(read_output_tree(out) == expected);
}

}  // namespace
}  // namespace winnow
