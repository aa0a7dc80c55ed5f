#include "pipeline/autoscaler.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace winnow {

namespace {

constexpr int kUnbounded = std::numeric_limits<int>::max() / 2;

// The budget left, in the units the planner adds workers with.
struct Usage {
  int cpus = 0;
  double gpus = 0;
  void add(const StageResources& needs, int workers) {
    cpus += needs.cpus * workers;
    gpus += needs.gpus * workers;
  }
  bool fits_one_more(const StageResources& needs, const ResourceBudget& budget) const {
    return cpus + needs.cpus <= budget.cpus && gpus + needs.gpus <= budget.gpus + 1e-9;
  }
};

}  // namespace

double StepObservation::rate(int workers) const {
  if (samples == 0) return -1;
  // Batches measured, in no time the clock can tell: never the bottleneck.
  if (mean_service_s <= 0) return std::numeric_limits<double>::infinity();
  return workers * docs_per_batch / mean_service_s;
}

bool StepObservation::starved(const AutoscaleSettings& settings) const {
  return input_empty_fraction >= 0.5 && busy_fraction < settings.starved_busy;
}

std::vector<StepPlan> plan_workers(const std::vector<StepObservation>& steps,
                                   const ResourceBudget& budget, const AutoscaleSettings& settings,
                                   AutoscalerMemory& memory) {
  const size_t n = steps.size();
  memory.shrink_proposals.resize(n);
  std::vector<StepPlan> plan(n);

  // ---- Ideal allocation: floors, then max-min balancing with headroom. ----
  std::vector<int> ideal(n, 0);
  std::vector<int> cap(n, kUnbounded);
  std::vector<int> own_caps(n, kUnbounded);  // from pins and resources: what never changes
  Usage used;
  for (size_t i = 0; i < n; ++i) {
    const StepObservation& s = steps[i];
    if (s.finished) continue;  // its workers are leaving; it holds nothing
    int own_cap = s.max_workers > 0 ? s.max_workers : kUnbounded;
    own_cap = std::min(own_cap, std::max(1, max_workers_for(s.needs, budget)));
    own_caps[i] = s.pinned > 0 ? s.pinned : own_cap;
    if (s.pinned > 0) {
      ideal[i] = cap[i] = s.pinned;
    } else {
      ideal[i] = 1;
      cap[i] = own_cap;
      int current = std::max(1, s.target);
      // An untrusted speed grows one worker per cycle; a starved step does not grow at all.
      if (static_cast<int>(s.samples) < settings.min_samples)
        cap[i] = std::min(cap[i], current + 1);
      if (s.starved(settings)) cap[i] = std::min(cap[i], current);
    }
    used.add(s.needs, ideal[i]);
  }
  auto can_grow = [&](size_t i, const Usage& u) {
    return !steps[i].finished && steps[i].pinned == 0 && ideal[i] < cap[i] &&
           u.fits_one_more(steps[i].needs, budget);
  };
  while (true) {
    // The slowest step that can grow (unknown speed first: it needs measuring).
    size_t best = n;
    double best_rate = 0;
    double fixed_min = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; ++i) {
      if (steps[i].finished) continue;
      double r = steps[i].rate(ideal[i]);
      if (!can_grow(i, used)) {
        // Only a step that can never grow (pinned, at its resource cap, or out of budget for
        // what it needs) bounds the pipeline; one held back this cycle (starved, untrusted
        // speed) does not, whatever its capacity.
        bool structural = steps[i].pinned > 0 || ideal[i] >= own_caps[i] ||
                          !used.fits_one_more(steps[i].needs, budget);
        if (r >= 0 && structural) fixed_min = std::min(fixed_min, r);
        continue;
      }
      if (best == n || r < best_rate) {
        best = i;
        best_rate = r;
      }
    }
    if (best == n) break;
    // Past headroom x the bottleneck that cannot grow, more workers would only idle.
    if (best_rate >= 0 && best_rate >= settings.headroom * fixed_min) break;
    ++ideal[best];
    used.add(steps[best].needs, 1);
  }

  // ---- Shrinks: only confirmed ones, never below protected workers or with a full queue. ----
  std::vector<int> final_target(n, 0);
  std::vector<bool> growing(n, false);
  Usage committed;
  for (size_t i = 0; i < n; ++i) {
    const StepObservation& s = steps[i];
    int current = std::max(1, s.target);
    StepPlan& p = plan[i];
    if (s.finished) {
      p = {current, "finished"};
      memory.shrink_proposals[i].clear();
      continue;
    }
    if (s.pinned > 0) {
      p = {s.pinned, "pinned"};
      final_target[i] = s.pinned;
      committed.add(s.needs, s.pinned);
      memory.shrink_proposals[i].clear();
      continue;
    }
    if (ideal[i] >= current) {
      memory.shrink_proposals[i].clear();
      final_target[i] = current;
      committed.add(s.needs, current);
      growing[i] = ideal[i] > current;
      p = {current, s.starved(settings) ? "starved" : "hold"};
      continue;
    }
    int desired = std::max({ideal[i], s.protected_workers, 1});
    final_target[i] = current;
    if (s.input_full_fraction >= 0.5 && s.output_full_fraction < 0.5) {
      memory.shrink_proposals[i].clear();
      p = {current, "hold: input queue full"};
    } else if (desired >= current) {
      memory.shrink_proposals[i].clear();
      p = {current, "hold: workers starting or in grace"};
    } else {
      std::deque<int>& proposals = memory.shrink_proposals[i];
      proposals.push_back(desired);
      while (proposals.size() > static_cast<size_t>(settings.shrink_cycles)) proposals.pop_front();
      int highest = *std::max_element(proposals.begin(), proposals.end());
      if (proposals.size() >= static_cast<size_t>(settings.shrink_cycles) && highest < current) {
        final_target[i] = highest;
        p = {final_target[i], "shrink"};
      } else {
        p = {current,
             fmt::format("shrink pending {}/{}", proposals.size(), settings.shrink_cycles)};
      }
    }
    committed.add(s.needs, final_target[i]);
  }

  // ---- Growth within what the held and shrunk steps leave, slowest first. ----
  while (true) {
    size_t best = n;
    double best_rate = 0;
    for (size_t i = 0; i < n; ++i) {
      if (!growing[i] || final_target[i] >= ideal[i]) continue;
      if (!committed.fits_one_more(steps[i].needs, budget)) continue;
      double r = steps[i].rate(final_target[i]);
      if (best == n || r < best_rate) {
        best = i;
        best_rate = r;
      }
    }
    if (best == n) break;
    ++final_target[best];
    committed.add(steps[best].needs, 1);
    plan[best] = {final_target[best], "grow"};
  }
  return plan;
}

}  // namespace winnow
