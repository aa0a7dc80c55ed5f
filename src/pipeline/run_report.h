#pragma once
// Turning a run's counts and step timings into the per-step table, stats.json and the summary.
#include <string>
#include <vector>

#include "pipeline/executor.h"
#include "pipeline/stage_runner.h"

namespace winnow {

struct StepTiming {
  std::string name;
  std::string type;
  int workers = 0;
  const StepMetrics* metrics = nullptr;  // null when the step never ran
  const StepSummary* summary = nullptr;  // null when the step never ran
};

// Per-step documents in / kept / dropped follow from the final drop reasons, because a
// document dropped by stage k passed every stage before k. This holds for resumed shards too,
// whose counts come from their completion markers.
std::vector<StepReport> derive_steps(const RunCounts& totals, const std::vector<StepTiming>& steps);

Status write_stats_json(const RunReport& report, const std::string& path);

}  // namespace winnow
