#pragma once
// Executor v1: runs a pipeline in one process. Threads: reader(s) → parse workers → each
// stage's workers → encode workers → one writer, joined by bounded queues of DocBatches.
// Output is deterministic: the writer restores each shard's batch order, so neither thread
// counts nor batch sizes change a byte of it.
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "core/run_counts.h"
#include "core/stage.h"
#include "pipeline/pipeline_config.h"
#include "pipeline/run_metrics.h"

namespace winnow {

// Which passes a run makes when the pipeline has global steps (dedup): both (identify, then
// the streaming remove pass), only identify (`winnow dedup identify`), or only remove, from
// an identify result already in the output folder (`winnow dedup remove`).
enum class PassMode { kAll, kIdentifyOnly, kRemoveOnly };

struct RunOptions {
  std::vector<std::string> inputs;  // overrides input.paths when not empty
  std::string output;               // overrides output.path when not empty
  std::optional<Compression> output_compression;
  std::optional<OnError> on_error;
  int threads = -1;               // overrides `threads` when >= 0
  double gpus = -1;               // overrides `gpus` when >= 0
  std::optional<bool> autoscale;  // overrides autoscale.enabled
  std::optional<bool> fuse;       // overrides `fuse` (stage fusion, pipeline/step_fusion.h)
  std::optional<uint64_t> batch_size;
  bool overwrite = false;
  bool progress = false;  // live progress on stderr (a block on a terminal, else log lines)
  // When set and it turns true (a signal handler), the run stops as a failure: finished shards
  // stay complete, the others leave no file behind, and a re-run resumes.
  const std::atomic<bool>* stop_requested = nullptr;
  PassMode passes = PassMode::kAll;
};

// A global step's identify result (see pipeline/global_passes.h).
struct GlobalStepSummary {
  std::string name;
  std::string json;     // a JSON object, for stats.json
  std::string text;     // for the terminal summary
  bool reused = false;  // loaded from an earlier run instead of computed
  double seconds = 0;
};

struct StepReport {
  std::string name;
  std::string type;  // "read", "write", or the stage type
  int workers = 0;
  uint64_t batches = 0;
  double busy_seconds = 0;
  uint64_t bytes_in = 0;  // this run only (see StepMetrics::bytes_in)
  uint64_t docs_in = 0;   // documents that reached the step (all runs, from the counts)
  uint64_t kept = 0;      // documents it let through
  std::map<std::string, uint64_t> dropped;  // reason -> count
  StageResources resources;                 // one worker's, as run (after a GPU fallback)
  bool pinned = false;
  // Set when the stage ran fused with its neighbours: the name of the step they ran as. Its
  // workers, scaling and input fill are then the step's; busy time, batches, service time and
  // setup are the stage's own (busy fraction: of the step's ready-worker time).
  std::string fused_group;
  StepSummary summary;  // workers over time, busy fraction, service time, setup
};

// Consecutive stages that ran as one executor step (pipeline/step_fusion.h).
struct FusedGroupReport {
  std::string name;
  size_t first_step = 0;  // index into RunReport::steps of the first member
  size_t steps = 0;       // members
  int workers = 0;
  uint64_t batches = 0;
  double busy_seconds = 0;  // the whole step (members plus the counting between them)
  StepSummary summary;
};

struct RunReport {
  Status status;
  RunCounts totals;  // this run's shards plus the completed shards it skipped
  std::vector<StepReport> steps;
  size_t input_files = 0;
  size_t skipped_files = 0;    // complete from an earlier run
  size_t completed_files = 0;  // completed by this run
  double elapsed_seconds = 0;
  int threads = 0;
  double gpus = 0;  // the GPU budget
  int gpus_detected = 0;
  bool autoscaled = false;
  bool fused = true;  // stage fusion on (the groups below are the stages it fused)
  std::vector<FusedGroupReport> fused_groups;
  int autoscale_interval_ms = 0;
  int autoscale_cycles = 0;
  // One per interval, for report.html. Each holds one StepSample per executor step: a fused
  // group is one (its members in StepSample::parts), so with fusion on these do not line up
  // with `steps` (see fused_groups; metrics.jsonl writes them out per stage).
  std::vector<RunSample> samples;
  std::string output_dir;
  std::string fingerprint;
  std::vector<GlobalStepSummary> global_steps;
  bool identify_only = false;  // `winnow dedup identify`: no document was written
  // The pipeline could not be set up (a stage's parameter or model, the resources it needs):
  // nothing was read and the output folder was not touched. The CLI exits 2, as for a bad
  // pipeline file, since the fix is in the configuration, not the data.
  bool setup_failed = false;
};

// Runs the pipeline; the report's status says whether it succeeded. stats.json is written to
// the output folder either way (once the folder exists).
RunReport run_pipeline(const PipelineConfig& config, const RunOptions& options);

// A one-screen summary of a report, for the terminal.
std::string format_summary(const RunReport& report);

}  // namespace winnow
