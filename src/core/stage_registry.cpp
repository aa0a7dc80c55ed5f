#include <algorithm>
#include <stdexcept>

#include "core/stage.h"

namespace winnow {

void StageRegistry::add(StageSpec spec) {
  if (find(spec.name)) throw std::logic_error("stage registered twice: " + spec.name);
  specs_.push_back(std::move(spec));
}

void StageRegistry::add_takes(const std::string& name, ItemKinds kinds) {
  for (auto& spec : specs_) {
    if (spec.name == name) {
      spec.takes = spec.takes | kinds;
      return;
    }
  }
  throw std::logic_error("no stage to widen: " + name);
}

void StageRegistry::set_reads_no_record_fields(const std::string& name) {
  for (auto& spec : specs_) {
    if (spec.name == name) {
      spec.record_fields = [](const StageParams&) { return RecordFields::none(); };
      return;
    }
  }
  throw std::logic_error("no stage to declare: " + name);
}

RecordFields RecordFields::of(std::vector<std::string> names) {
  std::erase_if(names, [](const std::string& name) { return name.empty(); });
  return {false, std::move(names)};
}

const StageSpec* StageRegistry::find(const std::string& name) const {
  for (const auto& spec : specs_) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::vector<const StageSpec*> StageRegistry::all() const {
  std::vector<const StageSpec*> out;
  for (const auto& spec : specs_) out.push_back(&spec);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return out;
}

}  // namespace winnow
