#pragma once
// The parts both passes build their executor steps from (the writing pass in executor.cpp and
// the dedup identify passes in global_passes.cpp): `read` parses a batch's raw records, and a
// stage's part runs its process() after its per-worker setup.
#include <string>
#include <vector>

#include "core/stage.h"
#include "io/input_files.h"
#include "io/jsonl_parser.h"
#include "pipeline/pipeline_config.h"
#include "pipeline/stage_runner.h"

namespace winnow {

// Parses with `parser`, naming `inputs[batch.shard]` in errors. Under `on_error: fail` the
// first bad record fails the run; under skip it stays in the batch's errors (errors/).
// `parser` and `inputs` must outlive the part.
StageRunner::Part parse_part(const JsonlParser& parser, const std::vector<InputFile>& inputs,
                             OnError on_error);

// `stage` must outlive the part.
StageRunner::Part stage_part(const std::string& name, Stage& stage);

}  // namespace winnow
