// The autoscaler benchmark's scenario (bench/autoscale_scenario.h) on a simulated clock: the
// executor's real threads, queues and autoscaler, with every cost an exact wait, so the
// benchmark's targets hold as a test whatever the machine's speed or load. The headline result
// regressed once unseen (the GPU-like stage 25% busy: a `read` step of its own measured as
// doing no work, so it took the whole budget); this keeps it from happening again.
#include <gtest/gtest.h>

#include "bench/autoscale_scenario.h"
#include "pipeline/simulated_clock.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

namespace as = autoscale_scenario;

class AutoscaleScenario : public ::testing::Test {
 protected:
  void SetUp() override {
    settings_.dir = dir_.path();
    as::write_corpus(settings_, corpus());
  }
  std::string corpus() const { return dir_.file("corpus"); }
  as::Outcome run(const std::string& stages, const std::string& out) {
    return as::run(registry_, settings_, stages, corpus(), dir_.file(out), true,
                   settings_.budget, clock_);
  }

  TempDir dir_;
  as::Settings settings_;
  SimulatedClock clock_;
  StageRegistry registry_ = as::registry(clock_);
};

TEST_F(AutoscaleScenario, TheGpuLikeStageStaysSaturatedFromOneWorkerPerStep) {
  as::Outcome alone = run(as::stage_yaml("gpu", settings_), "iso");
  const double isolated =
      as::steady(alone.report, as::step_index(alone.report, "gpu"), 1.0).docs_per_s;
  // 100 documents per 20 ms batch: nothing else costs simulated time. (A sample taken at the
  // instant a batch ends may count it written or not: one batch either way over the window.)
  EXPECT_NEAR(isolated, 5000, 25);

  as::Outcome streamed = run(as::all_stages(settings_), "stream");
  size_t gpu = as::step_index(streamed.report, "gpu");
  as::Steady steady = as::steady(streamed.report, gpu, settings_.warmup_s);
  ASSERT_GT(steady.to - steady.from, 5.0) << "too short a steady window to judge";
  EXPECT_GE(steady.busy, 0.995) << "the bottleneck stage is not kept busy";
  EXPECT_GE(steady.docs_per_s, 0.95 * isolated);
  EXPECT_EQ(steady.changes, 0) << "workers still move once balanced";
  // Within the budget: 12 CPU threads, and the GPU worker's wait holds none.
  int cpus = 0;
  for (const auto& step : streamed.report.steps) {
    cpus += step.resources.cpus * step.summary.workers_max;
  }
  EXPECT_LE(cpus, settings_.budget + 4);  // maxima of different moments may add up past it
}

TEST_F(AutoscaleScenario, WorkersFollowACheaperCpuStageAndTheGpuStaysBusy) {
  const double change_at = 0.5 * settings_.docs / 5000.0;
  as::Outcome changed = run(as::all_stages(settings_, change_at), "change");
  size_t cpu = as::step_index(changed.report, "cpu");
  size_t gpu = as::step_index(changed.report, "gpu");
  as::Settling settled = as::settling(changed.report, cpu, gpu, change_at);
  EXPECT_GT(settled.before, settled.settled) << "the cheaper stage kept its workers";
  EXPECT_GE(settled.cycles_to_settle, 1);
  EXPECT_LE(settled.cycles_to_settle, 12);
  EXPECT_GE(settled.gpu_busy_after, 0.99);
}

}  // namespace
}  // namespace winnow::testing
