#include "core/run_counts.h"

#include <simdjson.h>

namespace winnow {

uint64_t RunCounts::dropped_total() const {
  uint64_t total = 0;
  for (const auto& [reason, n] : dropped) total += n;
  return total;
}

uint64_t RunCounts::errors_total() const {
  uint64_t total = 0;
  for (const auto& [kind, n] : errors) total += n;
  return total;
}

void RunCounts::merge(const RunCounts& other) {
  documents += other.documents;
  kept += other.kept;
  for (const auto& [reason, n] : other.dropped) dropped[reason] += n;
  for (const auto& [kind, n] : other.errors) errors[kind] += n;
  blank_lines += other.blank_lines;
  skipped_records += other.skipped_records;
  input_bytes += other.input_bytes;
  output_bytes += other.output_bytes;
}

void RunCounts::write_json(JsonWriter& out) const {
  out.begin_object();
  out.key("documents").value(documents);
  out.key("kept").value(kept);
  out.key("dropped").value(dropped_total());
  out.key("errors").value(errors_total());
  out.key("dropped_by_reason").begin_object();
  for (const auto& [reason, n] : dropped) out.key(reason).value(n);
  out.end_object();
  out.key("errors_by_kind").begin_object();
  for (const auto& [kind, n] : errors) out.key(kind).value(n);
  out.end_object();
  out.key("blank_lines").value(blank_lines);
  if (skipped_records) out.key("skipped_records").value(skipped_records);
  out.key("input_bytes").value(input_bytes);
  out.key("output_bytes").value(output_bytes);
  out.end_object();
}

Result<RunCounts> RunCounts::parse_json(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = parser.parse(json.data(), json.size()).get(root)) {
    return Status::errorf("counts are not valid JSON: {}", simdjson::error_message(error));
  }
  RunCounts counts;
  auto read_u64 = [&](const char* key, uint64_t& out) -> Status {
    if (root[key].get(out)) return Status::errorf("counts lack the number '{}'", key);
    return Status::ok();
  };
  WINNOW_RETURN_IF_ERROR(read_u64("documents", counts.documents));
  WINNOW_RETURN_IF_ERROR(read_u64("kept", counts.kept));
  WINNOW_RETURN_IF_ERROR(read_u64("blank_lines", counts.blank_lines));
  if (root["skipped_records"].get(counts.skipped_records)) counts.skipped_records = 0;
  WINNOW_RETURN_IF_ERROR(read_u64("input_bytes", counts.input_bytes));
  WINNOW_RETURN_IF_ERROR(read_u64("output_bytes", counts.output_bytes));
  for (auto [key, target] : {std::pair{"dropped_by_reason", &counts.dropped},
                             std::pair{"errors_by_kind", &counts.errors}}) {
    simdjson::dom::object map;
    if (root[key].get(map)) return Status::errorf("counts lack the object '{}'", key);
    for (auto field : map) {
      uint64_t n;
      if (field.value.get(n)) return Status::errorf("'{}' holds a non-number", key);
      (*target)[std::string(field.key)] = n;
    }
  }
  if (!counts.reconciles()) return Status::error("counts do not reconcile");
  return counts;
}

}  // namespace winnow
