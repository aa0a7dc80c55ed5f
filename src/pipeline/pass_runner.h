#pragma once
// PassRunner: one pass over the input, the harness every pass uses (the writing pass, each
// identify pass of a global step). Its steps: `read` (the input files, pipeline/shard_source.h),
// the steps its client gives (parse, stages, encode...), the last of which consumes every batch
// (writes it, or lets it go). Consecutive ordinary CPU steps run fused as one executor step
// (pipeline/step_fusion.h): a pipeline of CPU stages is one step from reading a file to writing
// the output, whose workers each read a batch, run it through every stage and write it.
//
// Everything a pass does runs in its steps' workers, and a worker works only while it holds its
// step's resources from one ResourcePool on the run's budget: reading and decompressing,
// parsing, the stages, encoding, compressing and writing all count in `threads` (`--threads 1`
// uses one core). Each step starts with one worker (a pinned one with its count) and the
// autoscaler (RunMonitor) moves workers between them; without it every unpinned step gets
// `threads` workers. Memory is bounded by the batches in flight between reading and the sink.
// A failure anywhere, or a stop request, cancels every queue and wait; run() returns the first
// failure.
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/autoscaler.h"
#include "pipeline/resources.h"
#include "pipeline/run_monitor.h"
#include "pipeline/shard_source.h"
#include "pipeline/stage_runner.h"
#include "pipeline/step_fusion.h"

namespace winnow {

class ProgressDisplay;

// One step of a pass before fusion: what it does, and how its workers may run.
struct PassStep {
  StageRunner::Part part;
  FusionCandidate fusion;
};

struct PassSettings {
  ResourceBudget budget;
  AutoscaleSettings autoscale;
  int threads = 1;  // the CPU budget; without the autoscaler, workers per unpinned step
  bool fuse = true;
  const std::atomic<bool>* stop_requested = nullptr;
  std::string interrupted_message = "interrupted";  // the failure a stop request gives
  ProgressDisplay* progress = nullptr;               // optional
  std::string metrics_path;                          // metrics.jsonl; empty: none
  std::function<uint64_t()> documents_done;          // for progress and metrics
  Clock* clock = &Clock::system();                   // every time reading and wait
};

class PassRunner {
 public:
  PassRunner(ShardSource& source, std::vector<PassStep> steps, PassSettings settings);
  ~PassRunner();

  // Before run(): the live display (its step names: the groups' names).
  void set_progress(ProgressDisplay* progress) { settings_.progress = progress; }
  // The run's CPU budget, for code that may add threads while it has them free (a writer's
  // compressor); exists once constructed.
  CpuAllowance* cpu_allowance() { return pool_.get(); }
  Status run();
  void fail(const Status& status);

  // The executor steps (groups over `read` then the client's steps, in order), available once
  // constructed; their runners and the monitor's record after run().
  const std::vector<StageGroup>& groups() const { return groups_; }
  const std::vector<FusionCandidate>& candidates() const { return candidates_; }
  const StageRunner& runner(size_t group) const { return *runners_.at(group); }
  size_t runner_count() const { return runners_.size(); }
  const RunMonitor* monitor() const { return monitor_.get(); }
  // Every part's busy time and batches so far, in pass order (safe while the pass runs).
  std::vector<PartTotal> part_totals() const;
  // The busy time so far of the parts named `names` (safe while the pass runs).
  uint64_t busy_ns_of(const std::vector<std::string>& names) const;

 private:
  ShardSource& source_;
  std::vector<StageRunner::Part> parts_;  // read, then the client's
  std::vector<FusionCandidate> candidates_;
  std::vector<StageGroup> groups_;
  PassSettings settings_;

  std::vector<std::unique_ptr<BatchQueue>> queues_;  // queue g feeds group g + 1
  std::vector<std::unique_ptr<QueueInput>> owned_inputs_;
  std::vector<std::unique_ptr<StageRunner>> runners_;
  std::unique_ptr<ResourcePool> pool_;
  std::unique_ptr<RunMonitor> monitor_;
  std::mutex failure_mutex_;
  Status failure_;
  std::atomic<bool> failed_{false};
};

}  // namespace winnow
