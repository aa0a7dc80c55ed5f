#pragma once
// Global passes: runs the identify pass of every stage that declares a GlobalStep
// (core/global_step.h), in stage order, before the executor's ordinary streaming pass (which
// is then the remove pass). Pipeline code knows nothing of dedup; it only streams documents.
//
// Layout in the output folder, per global stage:
//   OUT/global/<stage name>/            the step's result (say duplicates.jsonl, summary.json)
//   OUT/global/<stage name>/_complete.json   marker, written last, with the fingerprint
//   OUT/global/<stage name>/_spill/     scratch while identifying, removed afterwards
// A result whose marker matches this pipeline and input set is reused; anything else there is
// removed and computed again. Identify passes read every input shard (also those an earlier
// run completed), so the decision never depends on how a run was interrupted.
//
// Materialisation (`materialize: auto|always|never`): the first identify pass reads the input
// and runs the stages before its global step; it can store its batches there (before the
// step), so that the next pass — the next global step's identify pass, or the writing pass —
// begins from them and runs only the stages after that point. Every stage then runs once.
#include <string>
#include <utility>
#include <vector>

#include "core/stage.h"
#include "dist/comm.h"
#include "io/input_files.h"
#include "io/jsonl_parser.h"
#include "pipeline/autoscaler.h"
#include "pipeline/batch_store.h"
#include "pipeline/pass_origin.h"
#include "pipeline/resources.h"
#include "pipeline/run_options.h"
#include "pipeline/run_report.h"
#include "pipeline/shard_plan.h"
#include "pipeline/step_parts.h"

namespace winnow {

struct GlobalPassPlan {
  const PipelineConfig* config = nullptr;
  const RunOptions* options = nullptr;
  const std::vector<InputFile>* inputs = nullptr;
  std::vector<PassStage> stages;  // every stage, in order, with what its workers need
  // Stage fusion (pipeline/step_fusion.h): an identify pass fuses `read`, `parse`, the stages
  // before the global one and its `identify` step as the writing pass does.
  bool fuse = true;
  // As in the writing pass: with autoscale.enabled the pass's steps start at one worker (a pin:
  // its count) and the autoscaler moves workers within `budget`; otherwise every step gets
  // `threads` workers.
  ResourceBudget budget;
  AutoscaleSettings autoscale;
  const JsonlParser* parser = nullptr;
  std::string output_dir;
  int threads = 1;
  uint64_t batch_size = 1024;
  OnError on_error = OnError::kFail;
  // Whether identify passes store their batches before their global step for the passes after
  // them (pipeline/batch_store.h), in work_dir.
  MaterializeMode materialize = MaterializeMode::kAuto;
  std::string work_dir;
  // Across ranks (dist/comm.h): which shards this rank reads (pipeline/shard_plan.h: the
  // first pass takes them from a queue the ranks share, later passes read the same), and the
  // ranks. The steps' finish_identify() meet across ranks; rank 0 prepares and marks the result
  // folders.
  ShardPlan* shards = nullptr;
  dist::Comm* comm = nullptr;  // null: one process
};

// What the identify passes leave to the writing pass.
struct GlobalPassOutcome {
  std::vector<GlobalStepSummary> summaries;
  std::vector<PassRecord> passes;
  PassOrigin writing_origin;           // where the writing pass begins
  std::unique_ptr<BatchStore> stored;  // the batches it begins from, if stored
};

bool has_global_steps(const std::vector<PassStage>& stages);

// Leaves every global step ready for its remove pass. With PassMode::kRemoveOnly a complete
// result must already exist for each (made by `winnow dedup identify`). Each identify pass
// begins where the one before left stored batches (or from the input) and, when the mode says
// so and stages ran, stores its own before its global step; `outcome.writing_origin` says
// where the writing pass begins.
Status run_global_passes(const GlobalPassPlan& plan, GlobalPassOutcome& outcome);

}  // namespace winnow
