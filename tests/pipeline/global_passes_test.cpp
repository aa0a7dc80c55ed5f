// The generic global-step machinery, with a test stage that knows nothing of dedup: it drops
// every document whose text length occurs more than once among the documents it observed
// (keeping the one with the smallest key), so its decision needs the whole input.
#include "pipeline/global_passes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::atomic<int> g_observed{0};  // documents observed, all passes
std::atomic<int> g_passes{0};    // identify passes run
std::atomic<int> g_loads{0};     // results reused
std::atomic<bool> g_stop_after_checkpoint{false};  // the job "dies" once its checkpoint is kept

class SameLengthStage : public Stage, public GlobalStep {
 public:
  SameLengthStage(StageContext& context, int passes, bool checkpoint)
      : reason_(context.declare_reason("same_length")), passes_(passes), checkpoint_(checkpoint) {}

  Status process(DocBatch& batch) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (batch.kept(i) && drop_.count(batch.key(i).value())) batch.drop(i, reason_);
    }
    return Status::ok();
  }
  GlobalStep* global_step() override { return this; }

  Status begin_identify(const GlobalStepContext& context) override {
    dir_ = context.result_dir;
    pass_ = 0;
    ++g_passes;
    // A checkpoint: the lengths observed, under the fingerprint they belong to.
    checkpoint_file_ = context.checkpoint_dir + "/lengths";
    fingerprint_ = context.fingerprint;
    std::ifstream in(checkpoint_file_);
    std::string fingerprint;
    resumed_ = checkpoint_ && std::getline(in, fingerprint) && fingerprint == fingerprint_;
    size_t length;
    uint64_t key;
    while (resumed_ && in >> length >> key) by_length_[length].push_back(key);
    return Status::ok();
  }
  bool resume_identify() override { return resumed_; }
  Status observe(const DocBatch& batch) override {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      ++g_observed;
      if (pass_ == 0) by_length_[batch.text(i).size()].push_back(batch.key(i).value());
    }
    return Status::ok();
  }
  bool another_pass() override {
    if (++pass_ >= passes_) return false;
    ++g_passes;
    return true;
  }
  Status finish_identify() override {
    if (checkpoint_ && !resumed_) {
      fs::create_directories(fs::path(checkpoint_file_).parent_path());
      std::ofstream kept(checkpoint_file_);
      kept << fingerprint_ << "\n";
      for (const auto& [length, keys] : by_length_) {
        for (uint64_t key : keys) kept << length << " " << key << "\n";
      }
      if (g_stop_after_checkpoint) return Status::error("stopped after the checkpoint");
    }
    std::ofstream out(dir_ + "/drop.txt");
    for (auto& [length, keys] : by_length_) {
      std::sort(keys.begin(), keys.end());
      for (size_t i = 1; i < keys.size(); ++i) out << keys[i] << "\n";
    }
    out.close();
    return load_result(dir_);
  }
  Status load_result(const std::string& dir) override {
    ++g_loads;
    std::ifstream in(dir + "/drop.txt");
    uint64_t key;
    while (in >> key) drop_.insert(key);
    return Status::ok();
  }
  std::string summary_json() const override {
    return "{\"to_remove\": " + std::to_string(drop_.size()) + "}";
  }
  std::string summary_text() const override { return "same length\n"; }

 private:
  ReasonId reason_;
  int passes_;
  bool checkpoint_;
  bool resumed_ = false;
  std::string checkpoint_file_, fingerprint_;
  int pass_ = 0;
  std::string dir_;
  std::mutex mutex_;
  std::map<size_t, std::vector<uint64_t>> by_length_;
  std::set<uint64_t> drop_;
};

StageRegistry test_registry() {
  StageRegistry registry = builtin_registry();
  registry.add({"same_length",
                "test",
                {{"passes", ParamType::kInt, "1", "identify passes"},
                 {"checkpoint", ParamType::kBool, "false", "keep the lengths for a rerun"}},
                [](const StageParams& p, StageContext& c) -> Result<std::unique_ptr<Stage>> {
                  return std::unique_ptr<Stage>(new SameLengthStage(
                      c, static_cast<int>(p.get_int("passes")), p.get_bool("checkpoint")));
                }});
  return registry;
}

RunReport run(const std::string& yaml, const std::string& in, const std::string& out,
              PassMode mode = PassMode::kAll, int threads = 2, bool overwrite = false) {
  static StageRegistry registry = test_registry();
  auto config = PipelineConfig::load_string(yaml, "test.yaml", registry);
  EXPECT_TRUE(config.is_ok()) << config.status().message();
  RunOptions options;
  options.inputs = {in};
  options.output = out;
  options.threads = threads;
  options.batch_size = 50;
  options.passes = mode;
  options.overwrite = overwrite;
  return run_pipeline(*config, options);
}

const char* kYaml = R"(output: {format: jsonl}
stages:
  - stage: text_length
    min_chars: 100
  - stage: same_length
    passes: 2
)";

TEST(GlobalPasses, IdentifySeesWhatEarlierStagesKeepAndResultsAreReused) {
  TempDir dir;
  fs::create_directories(dir.file("in"));
  write_corpus(dir.file("in"), 3, 400, 5);
  g_observed = g_passes = g_loads = 0;
  RunReport first = run(kYaml, dir.file("in"), dir.file("out"));
  ASSERT_TRUE(first.status.is_ok()) << first.status.message();
  uint64_t long_enough = first.totals.documents - first.totals.dropped.at("text_length/too_short");
  EXPECT_EQ(g_passes, 2);  // passes: 2 asks for a second identify pass
  EXPECT_EQ(g_observed, 2 * static_cast<int>(long_enough));  // only what text_length kept
  EXPECT_GT(first.totals.dropped.at("same_length/same_length"), 0u);
  EXPECT_TRUE(first.totals.reconciles());
  EXPECT_TRUE(fs::exists(dir.file("out/global/same_length/_complete.json")));
  ASSERT_EQ(first.global_steps.size(), 1u);
  EXPECT_FALSE(first.global_steps[0].reused);

  // Rerun: the complete result is loaded, no identify pass runs.
  g_observed = g_passes = 0;
  RunReport again = run(kYaml, dir.file("in"), dir.file("out"));
  ASSERT_TRUE(again.status.is_ok());
  EXPECT_EQ(g_passes, 0);
  EXPECT_TRUE(again.global_steps[0].reused);

  // A result without its marker (a killed identify pass) is not trusted: computed again.
  fs::remove(dir.file("out/global/same_length/_complete.json"));
  g_passes = 0;
  ASSERT_TRUE(run(kYaml, dir.file("in"), dir.file("out"), PassMode::kIdentifyOnly).status.is_ok());
  EXPECT_EQ(g_passes, 2);
  EXPECT_TRUE(fs::exists(dir.file("out/global/same_length/_complete.json")));

  // The two halves separately: remove needs identify first, and then gives the same output.
  RunReport early = run(kYaml, dir.file("in"), dir.file("out2"), PassMode::kRemoveOnly);
  EXPECT_FALSE(early.status.is_ok());
  EXPECT_THAT(early.status.message(), HasSubstr("no complete identify result"));
  RunReport identify = run(kYaml, dir.file("in"), dir.file("out2"), PassMode::kIdentifyOnly);
  ASSERT_TRUE(identify.status.is_ok());
  EXPECT_EQ(identify.completed_files, 0u);  // identify only writes no shard
  RunReport removed = run(kYaml, dir.file("in"), dir.file("out2"), PassMode::kRemoveOnly, 1);
  ASSERT_TRUE(removed.status.is_ok()) << removed.status.message();
  EXPECT_EQ(removed.totals.dropped, first.totals.dropped);
  EXPECT_EQ(read_output_tree(dir.file("out2/rejected")),
            read_output_tree(dir.file("out/rejected")));
}

TEST(GlobalPasses, AStepResumesFromItsCheckpointWithoutAnIdentifyPass) {
  TempDir dir;
  fs::create_directories(dir.file("in"));
  write_corpus(dir.file("in"), 3, 300, 7);
  std::string yaml = kYaml;
  yaml.replace(yaml.find("passes: 2"), 9, "passes: 2\n    checkpoint: true");
  RunReport whole = run(yaml, dir.file("in"), dir.file("whole"));
  ASSERT_TRUE(whole.status.is_ok()) << whole.status.message();
  // The result is whole: its checkpoint is gone.
  EXPECT_FALSE(fs::exists(dir.file("whole/global/_checkpoints/same_length")));
  // A job that stops once its checkpoint is kept, then its rerun.
  g_stop_after_checkpoint = true;
  RunReport stopped = run(yaml, dir.file("in"), dir.file("out"));
  g_stop_after_checkpoint = false;
  ASSERT_FALSE(stopped.status.is_ok());
  EXPECT_TRUE(fs::exists(dir.file("out/global/_checkpoints/same_length/lengths")));
  g_observed = g_passes = 0;
  RunReport resumed = run(yaml, dir.file("in"), dir.file("out"));
  ASSERT_TRUE(resumed.status.is_ok()) << resumed.status.message();
  EXPECT_EQ(g_observed, 0) << "no identify pass over the input";
  EXPECT_THAT(resumed.passes.front().name, HasSubstr("resumed from its checkpoint"));
  EXPECT_EQ(resumed.totals.dropped, whole.totals.dropped);
  EXPECT_EQ(read_output_tree(dir.file("out/rejected")), read_output_tree(dir.file("whole/rejected")));
  EXPECT_TRUE(fs::exists(dir.file("out/global/same_length/_complete.json")));
  EXPECT_FALSE(fs::exists(dir.file("out/global/_checkpoints/same_length")));
}

TEST(GlobalPasses, OverwriteRemovesTheResultsOfStagesThePipelineNoLongerHas) {
  TempDir dir;
  fs::create_directories(dir.file("in"));
  write_corpus(dir.file("in"), 2, 100, 9);
  ASSERT_TRUE(run(kYaml, dir.file("in"), dir.file("out")).status.is_ok());
  std::string renamed = kYaml;
  renamed.replace(renamed.find("passes: 2"), 9, "name: by_length");
  // Without --overwrite a stale result stays (the run never deletes what it was not told to).
  ASSERT_TRUE(run(renamed, dir.file("in"), dir.file("out2")).status.is_ok());
  fs::create_directories(dir.file("out2/global/old_name"));
  ASSERT_TRUE(run(renamed, dir.file("in"), dir.file("out2")).status.is_ok());
  EXPECT_TRUE(fs::exists(dir.file("out2/global/old_name")));
  RunReport rerun = run(renamed, dir.file("in"), dir.file("out"), PassMode::kAll, 2, true);
  ASSERT_TRUE(rerun.status.is_ok()) << rerun.status.message();
  EXPECT_FALSE(fs::exists(dir.file("out/global/same_length")));
  EXPECT_TRUE(fs::exists(dir.file("out/global/by_length/_complete.json")));
}

}  // namespace
}  // namespace winnow::testing
