#pragma once
// RunMonitor: the executor's control loop. On its own thread it samples every step's queues
// and workers a few dozen times per interval; at the end of each interval it turns the samples
// into a RunSample (metrics.jsonl, report.html), asks the autoscaler for worker targets and
// applies them, and refreshes the progress display.
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pipeline/autoscaler.h"
#include "pipeline/clock.h"
#include "pipeline/run_metrics.h"
#include "pipeline/stage_runner.h"

namespace winnow {

class JsonWriter;
class ProgressDisplay;

struct MonitoredStep {
  std::string name;
  StageRunner* runner = nullptr;
  StepInput* input = nullptr;
  BatchQueue* output = nullptr;  // null for a pass's last step (it consumes its batches)
  StageResources needs;
  int pinned = 0;  // > 0: never autoscaled
};

struct RunTotalsNow {
  uint64_t documents_done = 0;
  uint64_t input_bytes = 0;
  uint64_t compressed_bytes = 0;
};

class RunMonitor {
 public:
  RunMonitor(std::vector<MonitoredStep> steps, const ResourceBudget& budget,
             const AutoscaleSettings& settings, std::function<RunTotalsNow()> totals);
  ~RunMonitor();

  // metrics.jsonl: one line per interval, written as the run goes (empty path: none).
  void set_metrics_path(std::string path) { metrics_path_ = std::move(path); }
  void set_progress(ProgressDisplay* progress) { progress_ = progress; }
  // Before start(): where it reads the time and waits between samples.
  void set_clock(Clock& clock) {
    clock_ = &clock;
    wake_.set_clock(clock);
  }

  void start();
  void stop();  // records a last (partial) interval

  const std::vector<RunSample>& history() const { return history_; }
  std::vector<StepSummary> summaries() const;
  int cycles() const { return cycles_; }

 private:
  struct Accumulator {
    int ticks = 0;
    int empty_ticks = 0;
    int full_ticks = 0;
    int output_full_ticks = 0;
    double fill_sum = 0;
    double ready_sum = 0;
    uint64_t busy_ns = 0;  // at the interval's start
    uint64_t batches = 0;
    uint64_t source_docs = 0;
    std::vector<uint64_t> part_busy_ns;  // a fused step's members, at the interval's start
    std::vector<uint64_t> part_batches;
  };
  struct Totals {
    double ready_seconds = 0;
    double fill_sum = 0;
    int intervals = 0;
    int workers_min = 0;
    int workers_max = 0;
    int scale_ups = 0;
    int scale_downs = 0;
  };

  void loop();
  void tick();
  void end_interval(double seconds, bool final);
  StepSample close_step_interval(size_t i, double seconds, StepObservation& o);
  void add_part_samples(size_t i, double seconds, double ready_mean, const StepSnapshot& snap,
                        StepSample& s) const;
  void rescale(const std::vector<StepObservation>& observations, RunSample& sample);
  void keep_sample(RunSample sample);
  void mark_interval_start(size_t step, const StepSnapshot& snap, uint64_t batches,
                           uint64_t source_docs);
  void write_step_json(JsonWriter& out, const std::string& name, const StepSample& s,
                       const PartSample* part, const std::string& group) const;
  std::string metrics_line(const RunSample& sample) const;

  std::vector<MonitoredStep> steps_;
  ResourceBudget budget_;
  AutoscaleSettings settings_;
  std::function<RunTotalsNow()> totals_;
  std::string metrics_path_;
  std::FILE* metrics_file_ = nullptr;
  ProgressDisplay* progress_ = nullptr;

  Clock* clock_ = &Clock::system();
  Clock::time_point begin_;
  Clock::time_point interval_begin_;
  std::vector<Accumulator> acc_;
  std::vector<Totals> totals_per_step_;
  AutoscalerMemory memory_;
  std::vector<RunSample> history_;
  int cycles_ = 0;

  ClockThread thread_;
  std::mutex mutex_;
  ClockCondition wake_;
  bool stop_ = false;
};

}  // namespace winnow
