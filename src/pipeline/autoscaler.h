#pragma once
// Autoscaler: decides how many workers each step gets. plan_workers is a pure function of what
// was measured (per step: service times, documents per batch, queue states, busy fraction), the
// budget and the pins, plus a small memory carried from one cycle to the next (shrinks waiting
// for confirmation), so every rule is unit-tested without threads.
//
// The allocation follows the anchor (see shared/reference/autoscaler.md): a step's rate in
// source documents per second is workers x documents per batch / mean service time; max-min
// balancing gives the next worker to the slowest step that can grow, within the CPU and GPU
// budget; headroom keeps growing steps until they are `headroom` times faster than the
// bottleneck that cannot grow (a single-slot GPU step, a pinned step). Where the anchor fails,
// this one holds:
//   - a starved step (its input queue mostly empty while its workers wait) gets no worker;
//   - a worker still in setup, or ready for less than the grace period, is never taken away;
//   - a shrink must be proposed in `shrink_cycles` successive cycles before it happens, and
//     goes only as far as the least of those proposals (the highest target proposed);
//   - a step whose input queue is full is never shrunk while its output has room (work waits
//     for it); when its output is full too it waits on its consumer, and a full input says
//     nothing about its own speed (every step upstream of a bottleneck looks like that);
//   - a step with fewer than `min_samples` measured batches grows by at most one per cycle.
#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "core/stage.h"
#include "pipeline/resources.h"

namespace winnow {

struct AutoscaleSettings {
  bool enabled = true;     // false: every unpinned step gets `threads` workers, fixed
  int interval_ms = 1000;  // re-plan cadence
  double headroom = 1.5;   // grow non-bottleneck steps to this many times the bottleneck
  int min_samples = 5;     // batches measured before a step's speed is trusted
  int shrink_cycles = 3;   // cycles a shrink must be proposed in a row
  int grace_ms = 5000;     // a worker ready for less than this is never taken away
  int window = 64;         // service times kept per step (sliding window), at most two
                           // intervals old (but always the last 5)
  // Starved: input queue empty in at least half of the interval's samples and workers busy
  // less than this fraction of the time: mostly idle for want of input. A step busier than
  // that with an empty queue keeps up with little slack; headroom decides whether it grows.
  double starved_busy = 0.5;
};

// What the planner sees of one step at the end of an interval.
struct StepObservation {
  StageResources needs;             // per worker, after GPU fallback
  int pinned = 0;                   // > 0: exactly this many, never autoscaled
  int max_workers = 0;              // > 0: cap from the resources (e.g. one GPU slot)
  bool finished = false;            // its input has ended: it no longer counts
  int target = 1;                   // current target
  int protected_workers = 0;        // starting, or ready for less than the grace period
  size_t samples = 0;               // service times in the window
  double mean_service_s = 0;        // per batch, over the window
  double docs_per_batch = 0;        // source documents per batch, over the window
  double input_empty_fraction = 0;  // of the interval's queue samples
  double input_full_fraction = 0;
  double output_full_fraction = 0;
  double busy_fraction = 0;  // of its workers' time in the interval

  // Throughput in source documents per second with `workers` workers; < 0 when unknown
  // (nothing measured yet), infinite when its batches took no measurable time.
  double rate(int workers) const;
  bool starved(const AutoscaleSettings& settings) const;
};

// Carried from one cycle to the next by the caller.
struct AutoscalerMemory {
  // Per step, the targets proposed below the current one in the latest successive cycles
  // (at most shrink_cycles; a cycle without a shrink proposal clears it). A shrink happens when
  // it is full, to the highest of them; it is not cleared then, so after a real change of
  // speed the step steps down one cycle at a time as the proposals fall.
  std::vector<std::deque<int>> shrink_proposals;
};

struct StepPlan {
  int target = 1;
  std::string why;  // "grow", "shrink", "hold", "starved", "pinned", "shrink pending 1/3", ...
};

std::vector<StepPlan> plan_workers(const std::vector<StepObservation>& steps,
                                   const ResourceBudget& budget, const AutoscaleSettings& settings,
                                   AutoscalerMemory& memory);

}  // namespace winnow
