#include "pipeline/step_parts.h"

namespace winnow {

StageRunner::Part parse_part(const JsonlParser& parser, const std::vector<InputFile>& inputs,
                             OnError on_error) {
  return {"read",
          [&parser, &inputs, on_error](DocBatch& batch) -> Status {
            parser.parse(batch, inputs[batch.shard].path);
            if (!batch.errors.empty() && on_error == OnError::kFail) {
              return Status::errorf(
                  "{} (on_error: fail; set on_error: skip to log such records to errors/ and go "
                  "on)",
                  batch.errors.front().message);
            }
            return Status::ok();
          },
          {}};
}

StageRunner::Part stage_part(const std::string& name, Stage& stage) {
  return {name, [&stage](DocBatch& batch) { return stage.process(batch); },
          [&stage] { return stage.setup_worker(); }};
}

}  // namespace winnow
