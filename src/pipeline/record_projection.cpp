#include "pipeline/record_projection.h"

#include <algorithm>

namespace winnow {

RecordFields record_fields_of(const StageConfig& stage) {
  return stage.spec->record_fields ? stage.spec->record_fields(stage.params) : RecordFields::all();
}

std::optional<std::vector<std::string>> projected_columns(const std::vector<PassStage>& stages,
                                                          size_t from, size_t to,
                                                          const std::string& text_field,
                                                          const std::string& id_field) {
  std::vector<std::string> columns;
  auto add = [&columns](const std::string& field) {
    if (field.empty()) return;
    columns.push_back(field);
    // A nested field lies in the column named by its first part.
    if (size_t dot = field.find('.'); dot != std::string::npos) {
      columns.push_back(field.substr(0, dot));
    }
  };
  add(text_field);
  add(id_field);
  for (size_t i = from; i <= to && i < stages.size(); ++i) {
    const RecordFields& fields = stages[i].record_fields;
    if (fields.any) return std::nullopt;
    for (const std::string& name : fields.names) add(name);
  }
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}

}  // namespace winnow
