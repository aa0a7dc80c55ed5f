// add_id: gives every document an id "<prefix>-<shard>-<row>" built from its DocKey, so ids
// are unique and the same on every run, whatever the thread count (NeMo's AddId numbers
// documents in arrival order instead, which changes with parallelism).
#include <fmt/format.h>

#include "filters/builtin_stages.h"

namespace winnow {

namespace {

class AddIdStage final : public Stage {
 public:
  AddIdStage(std::string field, std::string prefix)
      : field_(std::move(field)), prefix_(std::move(prefix)) {}

  Status process(DocBatch& batch) override {
    AnnotationColumn& column = batch.annotation(field_, AnnotationType::kString);
    std::string id;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      id.clear();
      fmt::format_to(std::back_inserter(id), "{}-{:05}-{:010}", prefix_, batch.key(i).shard(),
                     batch.key(i).row());
      column.set_string(i, id);
      batch.set_id(i, id);
    }
    return Status::ok();
  }

 private:
  std::string field_;
  std::string prefix_;
};

}  // namespace

StageSpec add_id_spec() {
  return {
      "add_id",
      "Writes a stable id '<prefix>-<shard>-<row>' into a field (replacing any value there).",
      {
          {"field", ParamType::kString, "id", "field that receives the id"},
          {"prefix", ParamType::kString, "doc", "text before the numbers"},
      },
      [](const StageParams& p, StageContext&) -> Result<std::unique_ptr<Stage>> {
        if (p.get_string("field").empty()) return p.error("field", "must not be empty");
        return std::unique_ptr<Stage>(
            new AddIdStage(p.get_string("field"), p.get_string("prefix")));
      },
  };
}

}  // namespace winnow
