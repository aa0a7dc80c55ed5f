#pragma once
// RunReport: what a run did — its counts, each step's items, workers and time, the fused steps,
// the global steps' results — and how it is written: stats.json and the terminal summary.
#include <map>
#include <string>
#include <vector>

#include "core/report_pair.h"
#include "core/run_counts.h"
#include "core/stage.h"
#include "pipeline/clip_timelines.h"
#include "pipeline/report_sample.h"
#include "pipeline/run_metrics.h"
#include "pipeline/stage_runner.h"

namespace winnow {

// A global step's identify result (see pipeline/global_passes.h).
struct GlobalStepSummary {
  std::string name;
  std::string json;     // a JSON object, for stats.json
  std::string text;     // for the terminal summary
  std::string html;     // report.html's section when the step gives one (else the text)
  bool reused = false;  // loaded from an earlier run instead of computed
  double seconds = 0;
};

struct StepReport {
  std::string name;
  std::string type;  // "read", "parse", "encode", "write", or the stage type
  std::string kind_in;   // the kind of item it takes ("document", "image"...)
  std::string kind_out;  // and gives
  int workers = 0;
  uint64_t batches = 0;
  double busy_seconds = 0;
  uint64_t bytes_in = 0;  // this run only (see StepMetrics::bytes_in)
  uint64_t docs_in = 0;   // items that reached the step (all runs, from the counts)
  uint64_t kept = 0;      // items it let through, the children and merged items it made included
  std::map<std::string, uint64_t> dropped;  // reason -> count
  uint64_t fanned_out = 0;     // items it replaced by their children
  uint64_t children = 0;       // and the children
  uint64_t merged = 0;         // items it merged
  uint64_t merge_results = 0;  // and the items it made of them
  std::map<std::string, uint64_t> counts;  // what it counted besides (RunCounts::stage_counts)
  StageResources resources;                 // one worker's, as run (after a GPU fallback)
  bool pinned = false;
  // Set when the stage ran fused with its neighbours: the name of the step they ran as. Its
  // workers, scaling and input fill are then the step's; busy time, batches, service time and
  // setup are the stage's own (busy fraction: of the step's ready-worker time).
  std::string fused_group;
  StepSummary summary;  // workers over time, busy fraction, service time, setup
};

// A dropped item or an error record shown in report.html, with the file that holds it.
struct ReportExample {
  std::string what;     // "stage/reason" or the error kind
  std::string id;       // the item's id (empty for an error)
  std::string excerpt;  // the start of its text (an error: its message and excerpt)
  std::string file;     // relative to the output folder: rejected/… or errors/…
  double score = 0;     // NaN when the drop has none
};

// Consecutive stages that ran as one executor step (pipeline/step_fusion.h).
struct FusedGroupReport {
  std::string name;
  std::vector<size_t> members;  // indices into RunReport::steps, in order
  int workers = 0;
  uint64_t batches = 0;
  double busy_seconds = 0;  // the whole step (members plus the counting between them)
  StepSummary summary;
};

inline constexpr size_t kDefaultReportMaxBytes = 4u << 20;

struct RunReport {
  Status status;
  bool stopped = false;  // by a signal (Ctrl-C, SIGTERM): not a failure of the run
  RunCounts totals;  // this run's shards plus the completed shards it skipped
  std::vector<StepReport> steps;
  size_t input_files = 0;
  size_t input_shards = 0;  // files, with a split Parquet file's ranges counted one by one
  int ranks = 1;  // processes of the run (dist/comm.h); counts and step times are all ranks'
  size_t skipped_files = 0;    // shards complete from an earlier run
  size_t completed_files = 0;  // shards completed by this run
  double elapsed_seconds = 0;
  int threads = 0;
  double gpus = 0;  // the GPU budget
  int gpus_detected = 0;
  bool autoscaled = false;
  bool fused = true;  // stage fusion on (the groups below are the stages it fused)
  std::vector<FusedGroupReport> fused_groups;
  int autoscale_interval_ms = 0;
  int autoscale_cycles = 0;
  // The writing pass's executor steps (a fused group is one), in order: what each RunSample's
  // StepSamples are of.
  std::vector<std::string> executor_steps;
  // One per interval, for report.html. Each holds one StepSample per executor step: a fused
  // group is one (its members in StepSample::parts), so with fusion on these do not line up
  // with `steps` (see fused_groups; metrics.jsonl writes them out per stage).
  std::vector<RunSample> samples;
  std::string output_dir;
  std::string fingerprint;
  std::vector<GlobalStepSummary> global_steps;
  // Every pass over the data, in order: the identify passes, then the writing pass.
  std::vector<PassRecord> passes;
  // A few dropped items per reason and error records per kind, from this run's shards.
  std::vector<ReportExample> examples;
  // A seeded sample of kept and dropped items per "stage/reason" with small JPEGs, for the
  // page's pictures (pipeline/report_sample.h); empty for a text run.
  std::map<std::string, std::vector<SampledItem>> pictures;
  // A seeded sample of each dedup step's near-duplicate pairs (survivor and removed item, how
  // alike), in stage order, for the page's side-by-side pairs (pipeline/report_pairs.h).
  std::vector<ReportPair> pairs;
  // Where each of a seeded sample of source videos was cut into clips, and what became of
  // each clip (pipeline/clip_timelines.h); empty without clips.
  std::vector<SourceTimeline> timelines;
  // Stage name -> the parameters the pipeline file gave it ("min_blur: 100"), shown beside its
  // drop reasons' pictures so that a score can be read against its threshold.
  std::map<std::string, std::string> stage_settings;
  // report.max_bytes: the most bytes report.html may take; thumbnails go, largest first, to
  // keep it under.
  size_t report_max_bytes = kDefaultReportMaxBytes;
  bool identify_only = false;  // `winnow dedup identify`: no document was written
  // The pipeline could not be set up (a stage's parameter or model, the resources it needs, an
  // output folder it may not use): nothing was read and no output written. The CLI exits 2,
  // as for a bad pipeline file, since the fix is in the configuration, not the data.
  bool setup_failed = false;
};


struct StepTiming {
  std::string name;
  std::string type;
  std::string kind_in;
  std::string kind_out;
  int workers = 0;
  const StepMetrics* metrics = nullptr;  // null when the step never ran
  const StepSummary* summary = nullptr;  // null when the step never ran
};

// Per-step items in / out / dropped follow from the rows' final states, because an item that
// stage k dropped, replaced by children or merged passed every stage before k, and the items
// stage k made (children, merged items) reach every stage after it. This holds for resumed
// shards too, whose counts come from their completion markers. The `parse` step drops what
// became errors.
std::vector<StepReport> derive_steps(const RunCounts& totals, const std::vector<StepTiming>& steps);

Status write_stats_json(const RunReport& report, const std::string& path);
// summary.json of a video run (the anchor's name): the video funnel from the counts (videos in
// = split + dropped + errors; clips made = kept + dropped, reasons included), and each step's
// busy time and share of the total.
Status write_video_summary(const RunReport& report, const std::string& path);

// "documents 10 (+ children, merged items) = kept 7 + dropped 2 + errors 1 (+ fanned out,
// merged)  [reconciled]".
std::string reconcile_text(const RunCounts& totals);

// What a step did besides keeping and dropping: "fanned out 12 into 80 children", "merged 80
// into 12", its own counts ("chars_removed 5120"); empty for other steps.
std::string step_activity_text(const StepReport& step);

// A one-screen summary of a report, for the terminal.
std::string format_summary(const RunReport& report);

}  // namespace winnow
