#include "pipeline/autoscaler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <random>

namespace winnow {
namespace {

// A step measured long enough to be trusted: `ms` per batch of 100 source documents.
StepObservation measured(double ms, int target = 1) {
  StepObservation s;
  s.target = target;
  s.samples = 64;
  s.mean_service_s = ms / 1e3;
  s.docs_per_batch = 100;
  s.input_empty_fraction = 0;
  s.input_full_fraction = 0.2;
  s.busy_fraction = 1.0;
  return s;
}

std::vector<int> targets(const std::vector<StepPlan>& plan) {
  std::vector<int> out;
  for (const auto& p : plan) out.push_back(p.target);
  return out;
}

double min_rate(const std::vector<StepObservation>& steps, const std::vector<int>& workers) {
  double m = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < steps.size(); ++i) m = std::min(m, steps[i].rate(workers[i]));
  return m;
}

TEST(Autoscaler, MaxMinBalancingMatchesBruteForceOptimum) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    int n = 2 + static_cast<int>(rng() % 3);
    int budget = n + static_cast<int>(rng() % 8);
    std::vector<StepObservation> steps;
    for (int i = 0; i < n; ++i) steps.push_back(measured(1 + rng() % 50));
    AutoscaleSettings settings;
    AutoscalerMemory memory;
    auto plan = targets(plan_workers(steps, {budget, 0}, settings, memory));
    int used = 0;
    for (int w : plan) used += w;
    EXPECT_LE(used, budget);
    // Brute force over every allocation of at least one worker each.
    double best = 0;
    std::vector<int> w(n, 1);
    std::function<void(int, int)> search = [&](int i, int left) {
      if (i == n) {
        best = std::max(best, min_rate(steps, w));
        return;
      }
      for (int k = 1; k <= 1 + left; ++k) {
        w[i] = k;
        search(i + 1, left - (k - 1));
      }
      w[i] = 1;
    };
    search(0, budget - n);
    EXPECT_NEAR(min_rate(steps, plan), best, 1e-6 * best) << "round " << round;
  }
}

TEST(Autoscaler, SingleSlotBottleneckGetsOneWorkerAndOthersGetHeadroomOnly) {
  // read 2 ms, cpu 40 ms, gpu-like 25 ms with one exclusive slot, writer 10 ms; budget 32.
  std::vector<StepObservation> steps = {measured(2), measured(40), measured(25), measured(10)};
  steps[2].needs.gpus = 1;
  AutoscaleSettings settings;  // headroom 1.5
  AutoscalerMemory memory;
  auto plan = targets(plan_workers(steps, {32, 1}, settings, memory));
  EXPECT_EQ(plan[2], 1);
  double bottleneck = steps[2].rate(1);
  for (size_t i : {0u, 1u, 3u}) {
    // Fast enough to keep the slot fed with headroom...
    EXPECT_GE(steps[i].rate(plan[i]), settings.headroom * bottleneck) << i;
    // ...and not one worker more than that needs.
    EXPECT_LT(steps[i].rate(plan[i] - 1), settings.headroom * bottleneck) << i;
  }
  EXPECT_EQ(plan[1], 3);  // 40 ms vs 25 ms: 2 workers give 1.25x, 3 give 1.875x
}

TEST(Autoscaler, StarvedStepGetsNoWorkers) {
  // The middle step is the slowest per batch but idles on an empty input queue.
  std::vector<StepObservation> steps = {measured(10, 1), measured(40, 1), measured(5, 1)};
  steps[1].input_empty_fraction = 0.95;
  steps[1].busy_fraction = 0.3;
  AutoscaleSettings settings;
  AutoscalerMemory memory;
  auto plan = plan_workers(steps, {8, 0}, settings, memory);
  EXPECT_EQ(plan[1].target, 1);
  EXPECT_EQ(plan[1].why, "starved");
  EXPECT_GT(plan[0].target, 1);  // the budget goes to its upstream instead

  // An empty queue with workers fully busy is a balanced step, not a starved one.
  steps[1].busy_fraction = 0.99;
  AutoscalerMemory fresh;
  EXPECT_GT(plan_workers(steps, {8, 0}, settings, fresh)[1].target, 1);
}

TEST(Autoscaler, AStarvedSingleSlotStillBoundsWhatItsUpstreamGets) {
  // At start-up the GPU-like step idles behind its slow upstream: starved, but its one slot is
  // still the ceiling, so upstream grows to headroom x its rate and not to the whole budget.
  std::vector<StepObservation> steps = {measured(80, 1), measured(20, 1), measured(1, 1)};
  steps[1].needs.gpus = 1;
  steps[1].input_empty_fraction = 1.0;
  steps[1].busy_fraction = 0.2;
  AutoscaleSettings settings;
  AutoscalerMemory memory;
  auto plan = targets(plan_workers(steps, {12, 1}, settings, memory));
  EXPECT_EQ(plan[0], 6);  // 6 x 1250 docs/s = 1.5 x 5000
  EXPECT_EQ(plan[1], 1);
}

TEST(Autoscaler, UntrustedSpeedGrowsAtMostOneWorkerPerCycle) {
  std::vector<StepObservation> steps = {measured(1, 1), measured(100, 1)};
  steps[1].samples = 2;  // below min_samples
  AutoscaleSettings settings;
  AutoscalerMemory memory;
  EXPECT_EQ(plan_workers(steps, {16, 0}, settings, memory)[1].target, 2);
  steps[1].target = 2;
  EXPECT_EQ(plan_workers(steps, {16, 0}, settings, memory)[1].target, 3);
  // With no sample at all the speed is unknown: still one at a time.
  steps[1].target = 3;
  steps[1].samples = 0;
  EXPECT_EQ(plan_workers(steps, {16, 0}, settings, memory)[1].target, 4);
  // Trusted: straight to its share.
  steps[1].target = 4;
  steps[1].samples = 64;
  EXPECT_GT(plan_workers(steps, {16, 0}, settings, memory)[1].target, 5);
}

TEST(Autoscaler, ShrinkNeedsConfirmationOverSeveralCycles) {
  // The second step has 6 workers but needs about 1.
  std::vector<StepObservation> steps = {measured(10, 2), measured(1, 6)};
  AutoscaleSettings settings;
  settings.shrink_cycles = 3;
  AutoscalerMemory memory;
  ResourceBudget budget{8, 0};
  EXPECT_EQ(plan_workers(steps, budget, settings, memory)[1].target, 6);
  EXPECT_EQ(plan_workers(steps, budget, settings, memory)[1].target, 6);
  // A cycle where no shrink is proposed (its queue filled up) restarts the count.
  steps[1].input_full_fraction = 0.9;
  auto blocked = plan_workers(steps, budget, settings, memory);
  EXPECT_EQ(blocked[1].target, 6);
  EXPECT_EQ(blocked[1].why, "hold: input queue full");
  steps[1].input_full_fraction = 0;
  EXPECT_EQ(plan_workers(steps, budget, settings, memory)[1].target, 6);
  EXPECT_EQ(plan_workers(steps, budget, settings, memory)[1].target, 6);
  auto plan = plan_workers(steps, budget, settings, memory);
  EXPECT_LT(plan[1].target, 6);
  EXPECT_EQ(plan[1].why, "shrink");
}

TEST(Autoscaler, ConfirmedShrinkGoesOnlyAsFarAsTheLeastOfItsProposals) {
  std::vector<StepObservation> steps = {measured(10, 1), measured(1, 6)};
  AutoscaleSettings settings;
  settings.shrink_cycles = 2;
  AutoscalerMemory memory;
  steps[1].protected_workers = 4;  // first proposal: down to 4 only
  plan_workers(steps, {8, 0}, settings, memory);
  steps[1].protected_workers = 0;  // second proposal: down to 1
  EXPECT_EQ(plan_workers(steps, {8, 0}, settings, memory)[1].target, 4);
}

TEST(Autoscaler, AfterASpeedChangeShrinksStepDownAsTheProposalsFall) {
  std::vector<StepObservation> steps = {measured(10, 1), measured(1, 6)};
  AutoscaleSettings settings;
  settings.shrink_cycles = 2;
  AutoscalerMemory memory;
  steps[1].protected_workers = 4;  // proposals: 4, 4 -> shrink to 4
  EXPECT_EQ(plan_workers(steps, {8, 0}, settings, memory)[1].target, 6);
  EXPECT_EQ(plan_workers(steps, {8, 0}, settings, memory)[1].target, 4);
  steps[1].target = 4;
  steps[1].protected_workers = 0;  // proposals 4, 1: the highest is no shrink yet
  EXPECT_EQ(plan_workers(steps, {8, 0}, settings, memory)[1].target, 4);
  EXPECT_EQ(plan_workers(steps, {8, 0}, settings, memory)[1].target, 1);  // 1, 1
}

TEST(Autoscaler, NeverShrinksWorkersInSetupOrWithinGrace) {
  std::vector<StepObservation> steps = {measured(10, 2), measured(1, 5)};
  steps[1].protected_workers = 5;  // e.g. 2 loading a model, 3 ready for less than the grace
  AutoscaleSettings settings;
  settings.shrink_cycles = 1;
  AutoscalerMemory memory;
  for (int cycle = 0; cycle < 5; ++cycle) {
    auto plan = plan_workers(steps, {8, 0}, settings, memory);
    EXPECT_EQ(plan[1].target, 5);
    EXPECT_EQ(plan[1].why, "hold: workers starting or in grace");
  }
  steps[1].protected_workers = 2;  // three of them aged past the grace period
  EXPECT_EQ(plan_workers(steps, {8, 0}, settings, memory)[1].target, 2);
}

TEST(Autoscaler, NeverShrinksAStepWhoseInputQueueIsFull) {
  std::vector<StepObservation> steps = {measured(10, 1), measured(1, 6)};
  steps[1].input_full_fraction = 1.0;
  AutoscaleSettings settings;
  settings.shrink_cycles = 1;
  AutoscalerMemory memory;
  for (int cycle = 0; cycle < 4; ++cycle) {
    EXPECT_EQ(plan_workers(steps, {8, 0}, settings, memory)[1].target, 6);
  }
}

TEST(Autoscaler, AStepBlockedByItsConsumerMayShrinkDespiteAFullInput) {
  // Upstream of a bottleneck every queue is full; the step waits on its output, not on work.
  std::vector<StepObservation> steps = {measured(10, 1), measured(1, 6)};
  steps[1].input_full_fraction = 1.0;
  steps[1].output_full_fraction = 1.0;
  steps[1].busy_fraction = 0.2;
  AutoscaleSettings settings;
  settings.shrink_cycles = 1;
  AutoscalerMemory memory;
  EXPECT_LT(plan_workers(steps, {8, 0}, settings, memory)[1].target, 6);
}

TEST(Autoscaler, PinnedStepsKeepTheirCount) {
  std::vector<StepObservation> steps = {measured(10, 1), measured(100, 3), measured(1, 1)};
  steps[1].pinned = 3;
  AutoscaleSettings settings;
  AutoscalerMemory memory;
  auto plan = plan_workers(steps, {12, 0}, settings, memory);
  EXPECT_EQ(plan[1].target, 3);
  EXPECT_EQ(plan[1].why, "pinned");
}

TEST(Autoscaler, FinishedStepsFreeTheirBudget) {
  std::vector<StepObservation> steps = {measured(10, 6), measured(40, 2)};
  steps[0].finished = true;
  AutoscaleSettings settings;
  AutoscalerMemory memory;
  auto plan = plan_workers(steps, {8, 0}, settings, memory);
  EXPECT_EQ(plan[1].target, 8);
}

TEST(Autoscaler, NeverPlansBeyondTheBudget) {
  std::mt19937 rng(3);
  for (int round = 0; round < 500; ++round) {
    int n = 2 + static_cast<int>(rng() % 5);
    ResourceBudget budget{n + static_cast<int>(rng() % 12), static_cast<double>(rng() % 3)};
    std::vector<StepObservation> steps;
    double gpus_floor = 0;
    for (int i = 0; i < n; ++i) {
      StepObservation s = measured(1 + rng() % 60, 1 + static_cast<int>(rng() % 3));
      s.samples = rng() % 8;
      s.input_empty_fraction = (rng() % 4 == 0) ? 1.0 : 0.0;
      s.busy_fraction = (rng() % 2) ? 0.5 : 1.0;
      s.input_full_fraction = (rng() % 4 == 0) ? 1.0 : 0.0;
      s.protected_workers = static_cast<int>(rng() % 2);
      if (budget.gpus > 0 && rng() % 3 == 0) {
        s.needs.gpus = (rng() % 2) ? 0.5 : 1;
        s.target = 1;  // start within the GPU budget
      }
      gpus_floor += s.needs.gpus;
      steps.push_back(s);
    }
    if (gpus_floor > budget.gpus) continue;
    AutoscaleSettings settings;
    settings.shrink_cycles = 1 + static_cast<int>(rng() % 3);
    AutoscalerMemory memory;
    for (int cycle = 0; cycle < 6; ++cycle) {
      auto plan = plan_workers(steps, budget, settings, memory);
      int cpus = 0;
      double gpus = 0;
      int cpus_before = 0;
      for (int i = 0; i < n; ++i) {
        cpus += plan[i].target * steps[i].needs.cpus;
        gpus += plan[i].target * steps[i].needs.gpus;
        cpus_before += steps[i].target;
        EXPECT_GE(plan[i].target, 1);
        // Growth beyond one per cycle only for trusted speeds.
        if (steps[i].samples < static_cast<size_t>(settings.min_samples)) {
          EXPECT_LE(plan[i].target, steps[i].target + 1);
        }
      }
      // A plan may only exceed the budget where the current workers already did and it could
      // not shrink them yet; it never grows into an overrun.
      if (cpus > budget.cpus) {
        EXPECT_LE(cpus, cpus_before);
      }
      EXPECT_LE(gpus, budget.gpus + 1e-9);
      for (int i = 0; i < n; ++i) steps[i].target = plan[i].target;
    }
  }
}

}  // namespace
}  // namespace winnow
