// The executor under the autoscaler: same bytes as fixed workers, metrics.jsonl and stats.json,
// resources (GPU checks, the budget held at run time), setup time, pins.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "core/worker_device.h"
#include "pipeline/executor.h"
#include "pipeline/pipeline_fixture.h"
#include "pipeline/simulated_clock.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// Where the test stages spend their time and the runs read it: the steady clock, or, in the
// tests that check timings, a simulated one (OnSimulatedClock), where a sleep lasts exactly
// its time whatever the machine's load.
Clock* g_clock = &Clock::system();

class OnSimulatedClock {
 public:
  OnSimulatedClock() { g_clock = &clock_; }
  ~OnSimulatedClock() { g_clock = &Clock::system(); }

 private:
  SimulatedClock clock_;
};

// Counts how many process() calls run at once over every stage built from it.
struct Concurrency {
  std::atomic<int> now{0};
  std::atomic<int> peak{0};
};

// A test stage: sleeps per batch, optionally sets up slowly, tracks concurrency.
class SleepStage : public Stage {
 public:
  SleepStage(int batch_ms, int setup_ms, Concurrency* concurrency)
      : batch_ms_(batch_ms), setup_ms_(setup_ms), concurrency_(concurrency) {}
  Status process(DocBatch&) override {
    int running = ++concurrency_->now;
    int peak = concurrency_->peak.load();
    while (running > peak && !concurrency_->peak.compare_exchange_weak(peak, running)) {
    }
    g_clock->sleep_for(std::chrono::milliseconds(batch_ms_));
    --concurrency_->now;
    return Status::ok();
  }
  Status setup_worker() override {
    g_clock->sleep_for(std::chrono::milliseconds(setup_ms_));
    return Status::ok();
  }

 private:
  int batch_ms_;
  int setup_ms_;
  Concurrency* concurrency_;
};

Concurrency g_concurrency;
int g_factory_saw_gpus = -1;

// The devices the workers of a GPU stage were bound to: one entry per worker (at setup), and
// whether any batch ran on a thread bound elsewhere than its setup.
struct DevicesSeen {
  std::mutex mutex;
  std::vector<int> at_setup;
  bool moved = false;
};
DevicesSeen g_devices;

class DeviceStage : public Stage {
 public:
  Status setup_worker() override {
    std::lock_guard lock(g_devices.mutex);
    g_devices.at_setup.push_back(worker_gpu_device());
    return Status::ok();
  }
  Status process(DocBatch&) override {
    thread_local int setup_device = worker_gpu_device();
    g_clock->sleep_for(std::chrono::milliseconds(2));
    if (worker_gpu_device() != setup_device || worker_gpu_device() < 0) {
      std::lock_guard lock(g_devices.mutex);
      g_devices.moved = true;
    }
    return Status::ok();
  }
};

StageSpec sleep_spec(const std::string& name, StageResources resources) {
  StageSpec spec{name,
                 "test stage",
                 {{"batch_ms", ParamType::kInt, "1", "sleep per batch"},
                  {"setup_ms", ParamType::kInt, "0", "sleep per worker setup"}},
                 [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
                   g_factory_saw_gpus = context.gpus();
                   return std::unique_ptr<Stage>(
                       new SleepStage(static_cast<int>(p.get_int("batch_ms")),
                                      static_cast<int>(p.get_int("setup_ms")), &g_concurrency));
                 }};
  spec.resources = resources;
  return spec;
}

const StageRegistry& test_registry() {
  static StageRegistry registry = [] {
    StageRegistry r = builtin_registry();
    r.add(sleep_spec("sleep", {}));
    r.add(sleep_spec("gpu_sleep", {1, 1.0, false}));
    r.add(sleep_spec("gpu_or_cpu_sleep", {1, 0.5, true}));
    StageSpec device_spec{"gpu_device",
                          "test stage",
                          {},
                          [](const StageParams&, StageContext&) -> Result<std::unique_ptr<Stage>> {
                            return std::unique_ptr<Stage>(new DeviceStage);
                          }};
    device_spec.resources = {1, 0.5, false};
    r.add(device_spec);
    return r;
  }();
  return registry;
}

PipelineConfig config_of(const std::string& yaml) {
  auto config = PipelineConfig::load_string(yaml, "test.yaml", test_registry());
  if (!config.is_ok()) throw std::runtime_error(config.status().message());
  return std::move(config).value();
}

RunReport run(const std::string& yaml, const std::vector<std::string>& inputs,
              const std::string& out, int threads, std::optional<bool> autoscale = {},
              double gpus = -1, uint64_t batch = 32) {
  RunOptions options;
  options.inputs = inputs;
  options.output = out;
  options.threads = threads;
  options.batch_size = batch;
  options.autoscale = autoscale;
  options.gpus = gpus;
  options.overwrite = true;
  options.clock = g_clock;
  // On a simulated clock this thread takes part while the run lasts.
  std::optional<SimulatedClock::Participant> me;
  if (auto* simulated = dynamic_cast<SimulatedClock*>(g_clock)) me.emplace(*simulated);
  return run_pipeline(config_of(yaml), options);
}

// Forces "no GPU" whatever the machine has, for the duration of a test.
class NoGpu {
 public:
  NoGpu() { setenv("WINNOW_GPU_COUNT", "0", 1); }
  ~NoGpu() { unsetenv("WINNOW_GPU_COUNT"); }
};

TEST(ExecutorAutoscale, OutputIsByteIdenticalToFixedWorkerRuns) {
  OnSimulatedClock simulated;
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 4, 700);
  // Re-planning every 10 ms with a tiny grace moves workers around a lot during the run (each
  // step on its own: a fully fused pass is one step, which starts with the whole budget).
  const std::string yaml = R"(
output: {format: jsonl.zst}
on_error: skip
fuse: false
autoscale: {interval_ms: 10, grace_ms: 0, shrink_cycles: 1, min_samples: 1}
stages:
  - {stage: text_length, name: length, min_chars: 60, annotate: true}
  - {stage: sleep, batch_ms: 1}
  - {stage: sample, fraction: 0.7}
  - {stage: add_id, field: new_id}
)";
  RunReport fixed = run(yaml, inputs, dir.file("fixed"), 2, false, -1, 16);
  ASSERT_TRUE(fixed.status.is_ok()) << fixed.status.message();
  EXPECT_FALSE(fixed.autoscaled);
  auto expected = read_output_tree(dir.file("fixed"));
  for (int threads : {1, 3, 10}) {
    RunReport r = run(yaml, inputs, dir.file("auto"), threads, {}, -1, 16);
    ASSERT_TRUE(r.status.is_ok()) << r.status.message();
    EXPECT_TRUE(r.autoscaled);
    EXPECT_GT(r.autoscale_cycles, 0);
    EXPECT_TRUE(read_output_tree(dir.file("auto")) == expected) << threads << " threads";
    int changes = 0;
    for (const auto& step : r.steps) changes += step.summary.scale_ups + step.summary.scale_downs;
    // With more threads than its 8 steps' floor of one worker each, workers really move.
    if (threads > 8) EXPECT_GT(changes, 0) << threads << " threads: workers never moved";
  }
}

TEST(ExecutorAutoscale, WritesMetricsLinesAndSummarisesThemInStats) {
  OnSimulatedClock simulated;
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 600);
  RunReport r = run(R"(
autoscale: {interval_ms: 20}
fuse: false
stages:
  - {stage: sleep, name: slow, batch_ms: 4}
  - {stage: text_length, min_chars: 1}
)",
                    inputs, dir.file("out"), 8);  // 6 steps: 2 threads to hand out
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  std::string metrics = read_file(dir.file("out/metrics.jsonl"));
  auto lines = split_lines(metrics);
  ASSERT_GE(lines.size(), 3u);  // 38 batches of 4 ms: well over 60 ms
  EXPECT_EQ(lines.size(), r.samples.size());
  simdjson::dom::parser parser;
  double last_t = -1;
  for (const std::string& line : lines) {
    simdjson::dom::element doc = parser.parse(line);
    double t = doc["t"].get_double();
    EXPECT_GT(t, last_t);
    last_t = t;
    simdjson::dom::array steps = doc["steps"].get_array();
    ASSERT_EQ(steps.size(), 6u);  // read, parse, slow, text_length, encode, write
    std::vector<std::string> names;
    for (simdjson::dom::element step : steps) {
      names.emplace_back(std::string_view(step["name"].get_string()));
      for (const char* key : {"target", "starting", "ready", "busy", "idle"}) {
        EXPECT_TRUE(step["workers"][key].is_int64()) << key;
      }
      for (const char* key : {"busy_fraction", "input_fill", "batches_per_s", "docs_per_s",
                              "mean_service_ms", "setup_s"}) {
        double v = step[key].get_double();
        EXPECT_GE(v, 0) << key;
      }
      EXPECT_LE(double(step["busy_fraction"].get_double()), 1.0);
      EXPECT_GE(int64_t(step["input_capacity"].get_int64()), 1);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"read", "parse", "slow", "text_length", "encode",
                                               "write"}));
  }
  // The slow step did real work and got workers. On the simulated clock its 4 ms are exact.
  simdjson::dom::element stats = parser.parse(read_file(dir.file("out/stats.json")));
  EXPECT_TRUE(bool(stats["autoscale"]["enabled"].get_bool()));
  EXPECT_GT(int64_t(stats["autoscale"]["cycles"].get_int64()), 0);
  simdjson::dom::element slow = stats["steps"].at(2);
  EXPECT_EQ(std::string_view(slow["name"].get_string()), "slow");
  int64_t workers_max = slow["workers_max"].get_int64();
  EXPECT_GE(workers_max, 2);
  double batches = double(slow["batches"].get_uint64());
  double busy_s = slow["busy_seconds"].get_double();
  EXPECT_EQ(batches, 38);  // 1200 documents in batches of 32
  EXPECT_NEAR(busy_s, batches * 0.004, 1e-9);
  // Service time: the 4 ms of each batch, not a moment of the waits between them.
  double mean_ms = slow["mean_service_ms"].get_double();
  EXPECT_NEAR(mean_ms, 4.0, 1e-6);
  // Busy fraction: of the ready workers' time, at most workers_max over the whole run.
  double busy_fraction = slow["busy_fraction"].get_double();
  double elapsed = stats["elapsed_seconds"].get_double();
  EXPECT_LE(busy_fraction, 1.0);
  EXPECT_GE(busy_fraction, busy_s / (double(workers_max) * elapsed) * (1 - 1e-9))
      << busy_s << " s busy, " << elapsed << " s elapsed, " << workers_max << " workers at most";
  EXPECT_TRUE(fs::exists(dir.file("out/report.html")));
}

TEST(ExecutorAutoscale, NeverRunsMoreThanTheCpuBudgetAtOnce) {
  OnSimulatedClock simulated;
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 400);
  g_concurrency.peak = 0;
  RunReport r = run(R"(
autoscale: {interval_ms: 10, min_samples: 1}
stages:
  - {stage: sleep, name: a, batch_ms: 3}
  - {stage: sleep, name: b, batch_ms: 3}
  - {stage: sleep, name: c, batch_ms: 3}
)",
                    inputs, dir.file("out"), 2);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  EXPECT_LE(g_concurrency.peak.load(), 2);  // three sleeping steps, two CPU threads
  EXPECT_GE(g_concurrency.peak.load(), 1);
}

TEST(ExecutorAutoscale, GpuStageFailsFastWithoutAGpu) {
  NoGpu no_gpu;
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 1, 10);
  RunReport r = run("stages:\n  - {stage: gpu_sleep, name: embed}\n", inputs, dir.file("out"), 2);
  ASSERT_FALSE(r.status.is_ok());
  EXPECT_THAT(r.status.message(), HasSubstr("stage 'embed' needs a GPU"));
  EXPECT_FALSE(fs::exists(dir.file("out")));  // failed before touching the output folder
}

TEST(ExecutorAutoscale, GpuStageWithCpuFallbackRunsWithoutAGpu) {
  NoGpu no_gpu;
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 1, 50);
  g_factory_saw_gpus = -1;
  RunReport r = run("stages:\n  - {stage: gpu_or_cpu_sleep}\n", inputs, dir.file("out"), 2);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  EXPECT_EQ(g_factory_saw_gpus, 0);
  EXPECT_EQ(r.steps.at(2).resources.gpus, 0);  // ran on the CPU
}

TEST(ExecutorAutoscale, AWholeGpuStageGetsOneWorkerPerGpu) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 600);
  RunReport r = run(R"(
autoscale: {interval_ms: 10, min_samples: 1}
stages:
  - {stage: gpu_sleep, name: embed, batch_ms: 3}
)",
                    inputs, dir.file("out"), 8, {}, /*gpus=*/1);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  EXPECT_EQ(r.gpus, 1);
  const StepReport& embed = r.steps.at(2);
  EXPECT_EQ(embed.summary.workers_max, 1);
  // One worker's busy fraction: at least its busy time over the whole run (how close to 1
  // depends on how fast a loaded machine feeds it), and at least 3 ms per batch of busy time.
  EXPECT_GE(embed.busy_seconds, embed.batches * 0.003);
  EXPECT_GE(embed.summary.busy_fraction, embed.busy_seconds / r.elapsed_seconds * (1 - 1e-9));
  EXPECT_LE(embed.summary.busy_fraction, 1.0);
}

// Four half-GPU workers on two devices: each worker is bound to one device for its life, two
// per device (the per-device budget), whatever the total would allow.
TEST(ExecutorAutoscale, GpuWorkersAreBoundToDevicesWithinEachDevicesBudget) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 400);
  {
    std::lock_guard lock(g_devices.mutex);
    g_devices.at_setup.clear();
    g_devices.moved = false;
  }
  RunReport r = run("stages:\n  - {stage: gpu_device, workers: 4}\n", inputs, dir.file("out"), 8,
                    {}, /*gpus=*/2);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  std::lock_guard lock(g_devices.mutex);
  ASSERT_EQ(g_devices.at_setup.size(), 4u);
  EXPECT_EQ(std::count(g_devices.at_setup.begin(), g_devices.at_setup.end(), 0), 2);
  EXPECT_EQ(std::count(g_devices.at_setup.begin(), g_devices.at_setup.end(), 1), 2);
  EXPECT_FALSE(g_devices.moved);
}

TEST(ExecutorAutoscale, SetupTimeIsMeasuredApartAndPinnedStepsKeepTheirCount) {
  OnSimulatedClock simulated;
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 1, 300);
  RunReport r = run(R"(
autoscale: {interval_ms: 10}
stages:
  - {stage: sleep, name: model, batch_ms: 2, setup_ms: 150, workers: 3}
)",
                    inputs, dir.file("out"), 8);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  const StepReport& model = r.steps.at(2);
  EXPECT_TRUE(model.pinned);
  EXPECT_EQ(model.summary.workers_min, 3);
  EXPECT_EQ(model.summary.workers_max, 3);
  EXPECT_NEAR(model.summary.setup_seconds, 3 * 0.150, 1e-9);
  // Setup is not service time: the mean per batch is the 2 ms of process() alone, where 3
  // setups of 150 ms over 10 batches would add 45 ms.
  EXPECT_EQ(model.batches, 10u);
  EXPECT_NEAR(model.summary.mean_service_ms, 2.0, 1e-6);
}

TEST(ExecutorAutoscale, ConfigKeysAreCheckedWithFileAndLine) {
  auto error_of = [](const std::string& yaml) {
    auto config = PipelineConfig::load_string(yaml, "p.yaml", test_registry());
    return config.is_ok() ? std::string() : config.status().message();
  };
  EXPECT_EQ(error_of("gpus: auto\n"), "");
  EXPECT_EQ(error_of("gpus: 2\nautoscale: false\n"), "");
  EXPECT_EQ(error_of("autoscale: {interval_ms: 250, headroom: 1.2, grace_ms: 0}\n"), "");
  EXPECT_THAT(error_of("seed: 1\ngpus: many\n"), HasSubstr("p.yaml:2: 'gpus' must be"));
  EXPECT_THAT(error_of("gpus: -1\n"), HasSubstr("p.yaml:1: gpus must be"));
  EXPECT_THAT(error_of("autoscale:\n  intervall_ms: 5\n"),
              HasSubstr("p.yaml:2: unknown key 'intervall_ms' in autoscale"));
  EXPECT_THAT(error_of("autoscale:\n  interval_ms: 5\n"),
              HasSubstr("p.yaml:2: autoscale.interval_ms must be at least 10"));
  EXPECT_THAT(error_of("autoscale:\n  headroom: 0.5\n"), HasSubstr("p.yaml:2: autoscale.headroom"));
  auto config = PipelineConfig::load_string("autoscale: {enabled: false, interval_ms: 300}\n",
                                            "p.yaml", test_registry());
  ASSERT_TRUE(config.is_ok());
  EXPECT_FALSE(config->autoscale.enabled);
  EXPECT_EQ(config->autoscale.interval_ms, 300);
  // Resource settings never change output bytes: the fingerprint ignores them.
  auto a = PipelineConfig::load_string("gpus: 1\nautoscale: false\n", "p.yaml", test_registry());
  auto b = PipelineConfig::load_string("seed: 42\n", "p.yaml", test_registry());
  EXPECT_EQ(a->fingerprint, b->fingerprint);
}

}  // namespace
}  // namespace winnow::testing
