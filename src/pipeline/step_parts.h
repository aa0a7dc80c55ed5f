#pragma once
// The steps every pass builds on (the writing pass in executor.cpp, the identify passes in
// global_passes.cpp): `parse` turns a batch's raw records into documents, and each stage's step
// runs its process() after its per-worker setup. What follows them differs: encode and write,
// or observe and let go.
#include <string>
#include <vector>

#include "core/stage.h"
#include "io/input_files.h"
#include "io/jsonl_parser.h"
#include "pipeline/pass_origin.h"
#include "pipeline/pass_runner.h"
#include "pipeline/pipeline_config.h"
#include "pipeline/stage_runner.h"
#include "pipeline/step_fusion.h"

namespace winnow {

// A built stage as passes run it.
struct PassStage {
  std::string name;  // instance name
  Stage* stage = nullptr;
  FusionCandidate fusion;  // its resources, pin and global flag
  RecordFields record_fields;  // what it reads of the input record (pipeline/record_projection.h)
};

// Parses with `parser`, naming `inputs[batch.shard]` in errors. Under `on_error: fail` the
// first bad record fails the run; under skip it stays in the batch's errors (errors/).
// `parser` and `inputs` must outlive the part.
StageRunner::Part parse_part(const JsonlParser& parser, const std::vector<InputFile>& inputs,
                             OnError on_error);

// `stage` must outlive the part.
StageRunner::Part stage_part(const std::string& name, Stage& stage);

// The steps a pass begins with: `parse` when it reads the input (stored batches were parsed
// already), then the stages from origin.first_stage up to, not including, stage `to`. `inputs`
// are the input files (named in parse errors).
std::vector<PassStep> leading_steps(const PassOrigin& origin, const JsonlParser& parser,
                                    const std::vector<InputFile>& inputs, OnError on_error,
                                    const std::vector<PassStage>& stages, size_t to);

// An ordinary CPU step (fusable with its neighbours).
PassStep plain_step(StageRunner::Part part);

}  // namespace winnow
