#pragma once
// run_pipeline: runs a pipeline in one process. Its global steps (dedup) first get their
// identify passes (pipeline/global_passes.h); then the writing pass reads every input shard not
// complete yet, runs the stages and writes the output (pipeline/shard_writer.h), all on the one
// pass harness (pipeline/pass_runner.h). Output is deterministic: the writer restores each
// shard's batch order, so neither thread counts nor batch sizes change a byte of it.
#include "pipeline/pipeline_config.h"
#include "pipeline/run_options.h"
#include "pipeline/run_report.h"

namespace winnow {

// Runs the pipeline; the report's status says whether it succeeded. stats.json is written to
// the output folder either way (once the folder exists).
RunReport run_pipeline(const PipelineConfig& config, const RunOptions& options);

}  // namespace winnow
