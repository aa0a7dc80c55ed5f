// add_id: gives every document an id "<prefix>-<shard>-<row>" built from its DocKey, so ids
// are unique and the same on every run, whatever the thread count (NeMo's AddId numbers
// documents in arrival order instead, which changes with parallelism). An item a stage made
// (a chunk, a clip) has a derived key and gets "<prefix>-<key as 16 hex digits>".
#include <fmt/format.h>

#include "stages/builtin_stages.h"

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
      DocKey key = batch.key(i);
      if (key.derived()) {
        fmt::format_to(std::back_inserter(id), "{}-{:016x}", prefix_, key.value());
      } else {
        fmt::format_to(std::back_inserter(id), "{}-{:05}-{:010}", prefix_, key.shard(), key.row());
      }
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
  StageSpec spec{
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
  spec.takes = ItemKinds::any();  // documents and media items alike
  return spec;
}

}  // namespace winnow
