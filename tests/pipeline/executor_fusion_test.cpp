// Stage fusion in the executor (pipeline/step_fusion.h): consecutive ordinary CPU steps (read,
// the stages, write) run as one step, with the same output bytes as unfused runs for any threads
// and batch size, the same per-stage accounting, and one step for the autoscaler.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "pipeline/executor.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

// Sleeps per batch and per worker setup; throws when asked to.
class SleepStage : public Stage {
 public:
  SleepStage(int batch_ms, int setup_ms, bool fail)
      : batch_ms_(batch_ms), setup_ms_(setup_ms), fail_(fail) {}
  Status process(DocBatch&) override {
    if (fail_) throw std::runtime_error("boom");
    std::this_thread::sleep_for(std::chrono::milliseconds(batch_ms_));
    return Status::ok();
  }
  Status setup_worker() override {
    std::this_thread::sleep_for(std::chrono::milliseconds(setup_ms_));
    return Status::ok();
  }

 private:
  int batch_ms_, setup_ms_;
  bool fail_;
};

StageSpec sleep_spec(const std::string& name, StageResources resources) {
  StageSpec spec{name,
                 "test stage",
                 {{"batch_ms", ParamType::kInt, "1", "sleep per batch"},
                  {"setup_ms", ParamType::kInt, "0", "sleep per worker setup"},
                  {"fail", ParamType::kBool, "false", "throw from process()"}},
                 [](const StageParams& p, StageContext&) -> Result<std::unique_ptr<Stage>> {
                   return std::unique_ptr<Stage>(
                       new SleepStage(static_cast<int>(p.get_int("batch_ms")),
                                      static_cast<int>(p.get_int("setup_ms")), p.get_bool("fail")));
                 }};
  spec.resources = resources;
  return spec;
}

const StageRegistry& registry() {
  static StageRegistry r = [] {
    StageRegistry r = builtin_registry();
    r.add(sleep_spec("sleep", {}));
    r.add(sleep_spec("gpu_sleep", {1, 1.0, false}));
    return r;
  }();
  return r;
}

PipelineConfig config_of(const std::string& yaml) {
  auto config = PipelineConfig::load_string(yaml, "test.yaml", registry());
  if (!config.is_ok()) throw std::runtime_error(config.status().message());
  return std::move(config).value();
}

RunReport run(const PipelineConfig& config, const std::vector<std::string>& inputs,
              const std::string& out, int threads, uint64_t batch, std::optional<bool> fuse,
              double gpus = -1) {
  RunOptions options;
  options.inputs = inputs;
  options.output = out;
  options.threads = threads;
  options.batch_size = batch;
  options.fuse = fuse;
  options.gpus = gpus;
  options.overwrite = true;
  return run_pipeline(config, options);
}

// NeMo's English chain (28 filters) as shipped, and a shorter chain that also changes text
// and annotates; over the executor tests' corpus (escapes, non-ASCII, lengths 1-120 words).
TEST(ExecutorFusion, OutputIsByteIdenticalWithAndWithoutFusion) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 3, 400);
  auto nemo = PipelineConfig::load_file(
      std::string(WINNOW_SOURCE_DIR) + "/examples/nemo_english.yaml", registry());
  ASSERT_TRUE(nemo.is_ok()) << nemo.status().message();
  PipelineConfig mixed = config_of(R"(
output: {format: jsonl.zst}
on_error: skip
stages:
  - {stage: unicode_fix}
  - {stage: text_length, name: length, min_chars: 60, annotate: true}
  - {stage: word_count, min_words: 10, annotate: true}
  - {stage: sample, fraction: 0.8}
  - {stage: add_id, field: new_id}
)");
  for (const PipelineConfig* config : {&*nemo, &mixed}) {
    RunReport reference = run(*config, inputs, dir.file("ref"), 1, 1000, false);
    ASSERT_TRUE(reference.status.is_ok()) << reference.status.message();
    EXPECT_FALSE(reference.fused);
    EXPECT_TRUE(reference.fused_groups.empty());
    EXPECT_GT(reference.totals.kept, 0u);
    EXPECT_GT(reference.totals.dropped_total(), 0u);
    auto expected = read_output_tree(dir.file("ref"));
    for (int threads : {1, 2, 4}) {
      for (uint64_t batch : {7, 64, 1000}) {
        for (bool fuse : {true, false}) {
          SCOPED_TRACE(::testing::Message() << config->stages.size() << " stages, " << threads
                                            << " threads, batch " << batch << ", fuse " << fuse);
          RunReport r = run(*config, inputs, dir.file("out"), threads, batch, fuse);
          ASSERT_TRUE(r.status.is_ok()) << r.status.message();
          EXPECT_TRUE(read_output_tree(dir.file("out")) == expected);
          // Per-stage accounting is the same as unfused: documents in, kept, drops by reason.
          ASSERT_EQ(r.steps.size(), reference.steps.size());
          for (size_t i = 0; i < r.steps.size(); ++i) {
            EXPECT_EQ(r.steps[i].name, reference.steps[i].name);
            EXPECT_EQ(r.steps[i].docs_in, reference.steps[i].docs_in) << r.steps[i].name;
            EXPECT_EQ(r.steps[i].kept, reference.steps[i].kept) << r.steps[i].name;
            EXPECT_EQ(r.steps[i].dropped, reference.steps[i].dropped) << r.steps[i].name;
            EXPECT_GT(r.steps[i].batches, 0u) << r.steps[i].name;
            EXPECT_GT(r.steps[i].busy_seconds, 0) << r.steps[i].name;
          }
          if (fuse) {
            // One group: read, parse, every stage, encode, write: one executor step.
            ASSERT_EQ(r.fused_groups.size(), 1u);
            EXPECT_EQ(r.fused_groups[0].name, "fused(read..write)");
            ASSERT_EQ(r.fused_groups[0].members.size(), config->stages.size() + 4);
            EXPECT_EQ(r.fused_groups[0].members.front(), 0u);
            for (size_t i = 0; i < r.steps.size(); ++i) {
              EXPECT_EQ(r.steps[i].fused_group, r.fused_groups[0].name);
              // Every stage sees every batch of the group.
              EXPECT_EQ(r.steps[i].batches, r.fused_groups[0].batches);
            }
            for (const RunSample& sample : r.samples) EXPECT_EQ(sample.steps.size(), 1u);
          }
        }
      }
    }
  }
}

TEST(ExecutorFusion, AutoscalerSeesTheGroupAsOneStepAndMetricsShowEachStage) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 800);
  PipelineConfig config = config_of(R"(
autoscale: {interval_ms: 20, min_samples: 1}
stages:
  - {stage: sleep, name: a, batch_ms: 2}
  - {stage: sleep, name: b, batch_ms: 2}
  - {stage: sleep, name: c, batch_ms: 2}
)");
  RunReport r = run(config, inputs, dir.file("out"), 4, 16, {});  // fusion on by default
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  EXPECT_TRUE(r.fused);
  ASSERT_EQ(r.fused_groups.size(), 1u);
  const FusedGroupReport& group = r.fused_groups[0];
  EXPECT_EQ(group.name, "fused(read..write)");
  EXPECT_EQ(group.members.size(), 7u);
  // 100 batches of 6 ms: the group is the bottleneck and gets more than one worker.
  EXPECT_GE(group.summary.workers_max, 2);
  EXPECT_GE(group.batches, 100u);
  // Each member's service time is its own 2 ms sleep at least; how much longer depends on the
  // scheduler (on a loaded 2-core machine a 4 ms sleep averaged up to 17 ms), so the upper
  // bounds only catch gross errors (a unit, waits counted as service). The group's covers its
  // seven members' and the counting between them.
  constexpr double kSlackMs = 100;
  double members_busy = 0, members_ms = 0;
  for (size_t i = 0; i <= 6; ++i) {
    const StepReport& stage = r.steps[i];
    EXPECT_EQ(stage.fused_group, group.name);
    EXPECT_EQ(stage.workers, group.workers);
    EXPECT_EQ(stage.summary.workers_max, group.summary.workers_max);
    EXPECT_EQ(stage.batches, group.batches) << stage.name;
    EXPECT_LT(stage.summary.busy_fraction, group.summary.busy_fraction + 1e-9) << stage.name;
    members_busy += stage.busy_seconds;
    members_ms += stage.summary.mean_service_ms;
    if (i >= 2 && i <= 4) {
      EXPECT_GE(stage.summary.mean_service_ms, 2.0) << stage.name;
      EXPECT_LT(stage.summary.mean_service_ms, 2.0 + kSlackMs) << stage.name;
    }
  }
  EXPECT_GE(group.busy_seconds, members_busy * (1 - 1e-9));
  EXPECT_GE(group.summary.mean_service_ms, members_ms * (1 - 1e-9));
  EXPECT_LT(group.summary.mean_service_ms, 6.0 + kSlackMs);

  simdjson::dom::parser parser;
  auto lines = split_lines(read_file(dir.file("out/metrics.jsonl")));
  ASSERT_FALSE(lines.empty());
  for (const std::string& line : lines) {
    simdjson::dom::element doc = parser.parse(line);
    std::vector<std::string> names;
    for (simdjson::dom::element step : doc["steps"].get_array()) {
      std::string name(std::string_view(step["name"].get_string()));
      names.push_back(name);
      std::string_view fused;
      bool member = step["fused_group"].get(fused) == simdjson::SUCCESS;
      EXPECT_TRUE(member) << name;
      if (member) {
        EXPECT_EQ(fused, "fused(read..write)");
        EXPECT_LE(double(step["busy_fraction"].get_double()),
                  double(step["group_busy_fraction"].get_double()) + 1e-9);
      }
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"read", "parse", "a", "b", "c", "encode", "write"}));
  }
  simdjson::dom::element stats = parser.load(dir.file("out/stats.json"));
  EXPECT_TRUE(bool(stats["fuse"].get_bool()));
  simdjson::dom::element g = stats["fused_groups"].at(0);
  EXPECT_EQ(std::string_view(g["name"].get_string()), "fused(read..write)");
  EXPECT_EQ(simdjson::dom::array(g["stages"]).size(), 7u);
  EXPECT_EQ(std::string_view(stats["steps"].at(2)["fused_group"].get_string()),
            "fused(read..write)");
  std::string html = read_file(dir.file("out/report.html"));
  EXPECT_THAT(html, HasSubstr("<b>fused(read..write)</b> (7 steps fused)"));
  EXPECT_THAT(html, HasSubstr("&#8627; b"));
}

TEST(ExecutorFusion, GpuStagesPinsAndGlobalStepsBreakGroups) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 200);
  // The writing pass runs every stage (it does not begin from batches stored before the dedup).
  PipelineConfig config = config_of(R"(
materialize: never
stages:
  - {stage: text_length, name: length, min_chars: 10}
  - {stage: sample, fraction: 0.9}
  - {stage: gpu_sleep, name: embed}
  - {stage: add_id, field: a}
  - {stage: sleep, name: pinned, workers: 2}
  - {stage: add_id, name: id2, field: b}
  - {stage: exact_dedup}
  - {stage: word_count, min_words: 2}
  - {stage: sample, name: sample2, fraction: 0.9}
)");
  RunReport r = run(config, inputs, dir.file("out"), 3, 32, {}, /*gpus=*/1);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  std::vector<std::string> groups;
  for (const auto& g : r.fused_groups) groups.push_back(g.name);
  EXPECT_EQ(groups, (std::vector<std::string>{"fused(read..sample)", "fused(word_count..write)"}));
  for (const char* alone : {"embed", "add_id", "pinned", "id2", "exact_dedup"}) {
    auto it = std::find_if(r.steps.begin(), r.steps.end(),
                           [&](const StepReport& s) { return s.name == alone; });
    ASSERT_NE(it, r.steps.end()) << alone;
    EXPECT_TRUE(it->fused_group.empty()) << alone;
  }
  // 2 groups (one with read, one with write), 5 stages alone.
  for (const RunSample& sample : r.samples) EXPECT_EQ(sample.steps.size(), 7u);
  // The same bytes unfused (the identify pass of exact_dedup runs fused stages too).
  auto fused_out = read_output_tree(dir.file("out"));
  RunReport unfused = run(config, inputs, dir.file("out"), 3, 32, false, 1);
  ASSERT_TRUE(unfused.status.is_ok()) << unfused.status.message();
  EXPECT_TRUE(read_output_tree(dir.file("out")) == fused_out);
}

// The dedup identify pass runs its (fused) steps under the autoscaler and the budget, like the
// writing pass: the duplicates found, hence the output, are those of fixed-worker runs.
TEST(ExecutorFusion, IdentifyPassUnderTheAutoscalerFindsTheSameDuplicates) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 3, 300);
  // The corpus repeats its 14-word vocabulary: short documents collide often.
  PipelineConfig config = config_of(R"(
autoscale: {interval_ms: 10, grace_ms: 0, shrink_cycles: 1, min_samples: 1}
stages:
  - {stage: text_length, name: length, min_chars: 5}
  - {stage: add_id, field: a}
  - {stage: exact_dedup}
  - {stage: sample, fraction: 0.9}
)");
  RunOptions options;
  options.inputs = inputs;
  options.batch_size = 16;
  options.overwrite = true;
  options.output = dir.file("fixed");
  options.threads = 2;
  options.autoscale = false;
  options.fuse = false;
  RunReport fixed = run_pipeline(config, options);
  ASSERT_TRUE(fixed.status.is_ok()) << fixed.status.message();
  ASSERT_EQ(fixed.global_steps.size(), 1u);
  auto expected = read_output_tree(dir.file("fixed"));
  for (int threads : {1, 4}) {
    options.output = dir.file("auto");
    options.threads = threads;
    options.autoscale = true;
    options.fuse = true;
    RunReport r = run_pipeline(config, options);
    ASSERT_TRUE(r.status.is_ok()) << r.status.message();
    EXPECT_TRUE(read_output_tree(dir.file("auto")) == expected) << threads << " threads";
    EXPECT_EQ(r.totals.dropped, fixed.totals.dropped);
  }
  uint64_t duplicates = 0;
  for (const auto& [reason, n] : fixed.totals.dropped) {
    if (reason.rfind("exact_dedup/", 0) == 0) duplicates += n;
  }
  EXPECT_GT(duplicates, 0u);
}

TEST(ExecutorFusion, EachMemberSetsUpAndFailsUnderItsOwnName) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 1, 100);
  RunReport r = run(config_of(R"(
autoscale: false
stages:
  - {stage: sleep, name: first, setup_ms: 20}
  - {stage: sleep, name: second, setup_ms: 20}
)"),
                    inputs, dir.file("out"), 2, 16, {});
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  ASSERT_EQ(r.fused_groups.size(), 1u);
  // Two workers, each setting up both stages: each stage's setup counted apart.
  // (steps: read, parse, first, second, encode, write)
  EXPECT_GE(r.steps[2].summary.setup_seconds, 2 * 0.020 * 0.9);
  EXPECT_GE(r.steps[3].summary.setup_seconds, 2 * 0.020 * 0.9);
  EXPECT_GE(r.fused_groups[0].summary.setup_seconds,
            r.steps[2].summary.setup_seconds + r.steps[3].summary.setup_seconds - 1e-3);

  RunReport failed = run(config_of(R"(
stages:
  - {stage: text_length, min_chars: 1}
  - {stage: sleep, name: exploding, fail: true}
  - {stage: add_id, field: x}
)"),
                         inputs, dir.file("failed"), 2, 16, {});
  ASSERT_FALSE(failed.status.is_ok());
  EXPECT_THAT(failed.status.message(), HasSubstr("step 'exploding' failed"));
  EXPECT_THAT(failed.status.message(), HasSubstr("boom"));
}

TEST(ExecutorFusion, ConfigKeyAndOverride) {
  auto error_of = [](const std::string& yaml) {
    auto config = PipelineConfig::load_string(yaml, "p.yaml", registry());
    return config.is_ok() ? std::string() : config.status().message();
  };
  EXPECT_EQ(error_of("fuse: false\n"), "");
  EXPECT_THAT(error_of("seed: 1\nfuse: sometimes\n"),
              HasSubstr("p.yaml:2: 'fuse' must be true or false"));
  PipelineConfig off =
      config_of("fuse: false\nstages:\n  - {stage: add_id}\n  - {stage: sample, fraction: 0.5}\n");
  EXPECT_FALSE(off.fuse);
  EXPECT_TRUE(config_of("seed: 1\n").fuse);
  // Fusion never changes output bytes: the fingerprint ignores it.
  EXPECT_EQ(
      off.fingerprint,
      config_of("stages:\n  - {stage: add_id}\n  - {stage: sample, fraction: 0.5}\n").fingerprint);

  TempDir dir;
  auto inputs = write_corpus(dir.path(), 1, 50);
  RunReport r = run(off, inputs, dir.file("out"), 1, 16, {});
  ASSERT_TRUE(r.status.is_ok());
  EXPECT_FALSE(r.fused);
  EXPECT_TRUE(r.fused_groups.empty());
  r = run(off, inputs, dir.file("out"), 1, 16, true);  // the option wins (--no-fuse's opposite)
  ASSERT_TRUE(r.status.is_ok());
  EXPECT_EQ(r.fused_groups.size(), 1u);
}

}  // namespace
}  // namespace winnow::testing
