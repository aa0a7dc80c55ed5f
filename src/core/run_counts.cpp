#include "core/run_counts.h"

#include <simdjson.h>

#include "core/reason_table.h"

namespace winnow {

namespace {

uint64_t sum(const std::map<std::string, uint64_t>& counts) {
  uint64_t total = 0;
  for (const auto& [name, n] : counts) total += n;
  return total;
}

void add_into(std::map<std::string, uint64_t>& to, const std::map<std::string, uint64_t>& from) {
  for (const auto& [name, n] : from) to[name] += n;
}

constexpr const char* kLevelFields[] = {"created", "kept",       "dropped",
                                        "errors",  "fanned_out", "merged"};

uint64_t* level_field(LevelCounts& level, size_t i) {
  uint64_t* fields[] = {&level.created, &level.kept,       &level.dropped,
                        &level.errors,  &level.fanned_out, &level.merged};
  return fields[i];
}

}  // namespace

void LevelCounts::merge(const LevelCounts& other) {
  created += other.created;
  kept += other.kept;
  dropped += other.dropped;
  errors += other.errors;
  fanned_out += other.fanned_out;
  merged += other.merged;
}

std::string RunCounts::level_name(std::string_view kind, int depth) {
  return std::string(kind) + "@" + std::to_string(depth);
}

bool RunCounts::reconciles() const {
  if (documents + sum(children) + sum(merge_results) !=
      kept + dropped_total() + errors_total() + sum(fanned_out) + sum(merged)) {
    return false;
  }
  for (const auto& [name, level] : levels) {
    if (!level.reconciles()) return false;
  }
  return true;
}

void RunCounts::add_batch(const DocBatch& batch, const ReasonTable& reasons, ItemKind input_kind) {
  for (size_t i = 0; i < batch.size(); ++i) {
    const RowLineage& lineage = batch.lineage(i);
    LevelCounts& level = levels[level_name(item_kind_name(lineage.kind), lineage.depth)];
    ++level.created;
    if (lineage.origin == kKept) {
      ++documents;
    } else {
      const DropReason& made_by = reasons.at(lineage.origin);
      ++(made_by.outcome == RowOutcome::kFannedOut ? children : merge_results)[made_by.qualified()];
    }
    if (batch.kept(i)) {
      ++kept;
      ++level.kept;
      continue;
    }
    const DropReason& reason = reasons.at(batch.drop_reason(i));
    switch (reason.outcome) {
      case RowOutcome::kDropped:
        ++dropped[reason.qualified()];
        ++level.dropped;
        break;
      case RowOutcome::kFannedOut:
        ++fanned_out[reason.qualified()];
        ++level.fanned_out;
        break;
      case RowOutcome::kMerged:
        ++merged[reason.qualified()];
        ++level.merged;
        break;
      case RowOutcome::kError:  // a stage's error record: counted with the input's, by kind
        ++errors[reason.qualified()];
        ++level.errors;
        break;
    }
  }
  if (!batch.errors.empty()) {
    LevelCounts& level = levels[level_name(item_kind_name(input_kind), 0)];
    level.created += batch.errors.size();
    level.errors += batch.errors.size();
    documents += batch.errors.size();
    for (const auto& e : batch.errors) ++errors[std::string(input_error_name(e.kind))];
  }
  blank_lines += batch.blank_lines;
  skipped_records += batch.skipped_records;
  input_bytes += batch.raw_input_bytes;
  add_into(stage_counts, batch.stage_counts);
}

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
  add_into(fanned_out, other.fanned_out);
  add_into(children, other.children);
  add_into(merged, other.merged);
  add_into(merge_results, other.merge_results);
  add_into(stage_counts, other.stage_counts);
  for (const auto& [name, level] : other.levels) levels[name].merge(level);
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
  // Only pipelines with fan-out or fan-in stages, or stages that count, have these.
  for (auto [key, map] : {std::pair{"fanned_out", &fanned_out}, std::pair{"children", &children},
                          std::pair{"merged", &merged},
                          std::pair{"merge_results", &merge_results},
                          std::pair{"stage_counts", &stage_counts}}) {
    if (map->empty()) continue;
    out.key(key).begin_object();
    for (const auto& [name, n] : *map) out.key(name).value(n);
    out.end_object();
  }
  out.key("levels").begin_object();
  for (const auto& [name, level] : levels) {
    out.key(name).begin_object();
    LevelCounts copy = level;
    for (size_t f = 0; f < std::size(kLevelFields); ++f) {
      out.key(kLevelFields[f]).value(*level_field(copy, f));
    }
    out.end_object();
  }
  out.end_object();
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
  for (auto [key, target] :
       {std::pair{"fanned_out", &counts.fanned_out}, std::pair{"children", &counts.children},
        std::pair{"merged", &counts.merged}, std::pair{"merge_results", &counts.merge_results},
        std::pair{"stage_counts", &counts.stage_counts}}) {
    simdjson::dom::object map;
    if (root[key].get(map)) continue;  // no fan-out, fan-in or counting stage in this pipeline
    for (auto field : map) {
      uint64_t n;
      if (field.value.get(n)) return Status::errorf("'{}' holds a non-number", key);
      (*target)[std::string(field.key)] = n;
    }
  }
  simdjson::dom::object levels;
  if (root["levels"].get(levels)) levels = {};  // written before levels were counted
  for (auto field : levels) {
    LevelCounts& level = counts.levels[std::string(field.key)];
    for (size_t f = 0; f < std::size(kLevelFields); ++f) {
      if (field.value[kLevelFields[f]].get(*level_field(level, f))) {
        return Status::errorf("level '{}' lacks the number '{}'", std::string(field.key),
                              kLevelFields[f]);
      }
    }
  }
  if (!counts.reconciles()) return Status::error("counts do not reconcile");
  return counts;
}

}  // namespace winnow
