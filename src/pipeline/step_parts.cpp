#include "pipeline/step_parts.h"

namespace winnow {

StageRunner::Part parse_part(const JsonlParser& parser, const std::vector<InputFile>& inputs,
                             OnError on_error) {
  return {"parse",
          [&parser, &inputs, on_error](DocBatch& batch) -> Status {
            const InputFile& input = inputs[batch.shard];
            parser.parse(batch, input.path, input.key_shard);
            if (!batch.errors.empty() && on_error == OnError::kFail) {
              return Status::errorf(
                  "{} (on_error: fail; set on_error: skip to log such records to errors/ and go "
                  "on)",
                  batch.errors.front().message);
            }
            return Status::ok();
          },
          {},
          {}};
}

StageRunner::Part stage_part(const std::string& name, Stage& stage) {
  return {name, [&stage](DocBatch& batch) { return stage.process(batch); },
          [&stage] { return stage.setup_worker(); }, {}};
}

PassStep plain_step(StageRunner::Part part) {
  std::string name = part.name;
  return {std::move(part), FusionCandidate{std::move(name), StageResources{}, 0, false}};
}

std::vector<PassStep> leading_steps(const PassOrigin& origin, const JsonlParser& parser,
                                    const std::vector<InputFile>& inputs, OnError on_error,
                                    const std::vector<PassStage>& stages, size_t to) {
  std::vector<PassStep> steps;
  if (!origin.stored()) steps.push_back(plain_step(parse_part(parser, inputs, on_error)));
  for (size_t i = origin.first_stage; i < to && i < stages.size(); ++i) {
    steps.push_back({stage_part(stages[i].name, *stages[i].stage), stages[i].fusion});
  }
  return steps;
}

}  // namespace winnow
