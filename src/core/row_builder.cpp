#include "core/row_builder.h"

#include <fmt/format.h>

#include <limits>
#include <stdexcept>

namespace winnow {

RowBuilder::RowBuilder(DocBatch& batch) : batch_(batch) {
  source_.reserve(batch.size());
  rows_.reserve(batch.size());
}

size_t RowBuilder::add_row(size_t from) {
  if (finished_) throw std::logic_error("RowBuilder used after finish()");
  source_.push_back(from);
  rows_.append_row(batch_.rows_, from);
  return source_.size() - 1;
}

size_t RowBuilder::carry(size_t row) {
  if (row != next_carry_) {
    throw std::logic_error(fmt::format("rows must be carried once each, in order: row {} where "
                                       "row {} was due",
                                       row, next_carry_));
  }
  ++next_carry_;
  return add_row(row);
}

size_t RowBuilder::carry_as(size_t row, ReasonId state) {
  size_t r = carry(row);
  rows_.reasons[r] = state;
  rows_.scores[r] = std::numeric_limits<double>::quiet_NaN();
  return r;
}

size_t RowBuilder::add_child(size_t parent, uint32_t index, ReasonId origin,
                             std::string_view text) {
  size_t r = add_row(parent);
  const DocBatch::Rows& old = batch_.rows_;
  rows_.keys[r] = DocKey::child(old.keys[parent], index);
  rows_.texts[r] = kept_text(text);
  rows_.ids[r] = batch_.arena_.append(fmt::format("{}-{}", old.ids[parent], index));
  const RowLineage& up = old.lineage[parent];
  if (up.depth == std::numeric_limits<uint8_t>::max()) {
    throw std::length_error("fan-out nested deeper than 255 levels");
  }
  rows_.lineage[r] = {old.keys[parent], origin, static_cast<uint8_t>(up.depth + 1), up.kind, index};
  // The child's text is new to the output (a part of its parent's), and its id is its own:
  // written from the id column in place of the record's (as for a generated id).
  rows_.flags[r] = static_cast<uint8_t>(old.flags[parent] | DocBatch::kTextChanged |
                                        DocBatch::kIdGenerated);
  make_kept(r);
  return r;
}

size_t RowBuilder::add_merged(size_t like, ReasonId origin, std::string_view text) {
  size_t r = add_row(like);
  rows_.texts[r] = kept_text(text);
  rows_.lineage[r].origin = origin;
  rows_.flags[r] = static_cast<uint8_t>(rows_.flags[r] | DocBatch::kTextChanged);
  make_kept(r);
  return r;
}

std::string_view RowBuilder::kept_text(std::string_view text) {
  return batch_.in_raw(text) || batch_.arena_.owns(text) ? text : batch_.arena_.append(text);
}

void RowBuilder::make_kept(size_t new_row) {
  rows_.reasons[new_row] = kKept;
  rows_.scores[new_row] = std::numeric_limits<double>::quiet_NaN();
}

void RowBuilder::set_id(size_t new_row, std::string_view id) {
  rows_.ids[new_row] = batch_.arena_.append(id);
  rows_.flags[new_row] = static_cast<uint8_t>(rows_.flags[new_row] | DocBatch::kIdGenerated);
}

void RowBuilder::set_kind(size_t new_row, ItemKind kind) { rows_.lineage[new_row].kind = kind; }

void RowBuilder::set_payload(size_t new_row, Payload payload) {
  if (rows_.payloads.size() < size()) rows_.payloads.resize(size());
  rows_.payloads[new_row] = std::move(payload);
}

void RowBuilder::finish() {
  if (finished_) return;
  if (next_carry_ != batch_.size()) {
    throw std::logic_error(fmt::format("{} of the batch's {} rows were carried over", next_carry_,
                                       batch_.size()));
  }
  finished_ = true;
  // Annotation columns follow their rows: a new row takes the value of the row it came from.
  for (auto& column : batch_.annotations_) {
    auto rebuilt = std::make_unique<AnnotationColumn>(column->name(), column->type(), size());
    for (size_t r = 0; r < size(); ++r) {
      size_t from = source_[r];
      if (!column->has(from)) continue;
      switch (column->type()) {
        case AnnotationType::kFloat:
          rebuilt->set_float(r, column->float_at(from));
          break;
        case AnnotationType::kInt:
          rebuilt->set_int(r, column->int_at(from));
          break;
        case AnnotationType::kString:
          rebuilt->set_string(r, column->string_at(from));
          break;
        case AnnotationType::kFloatVector:
          rebuilt->set_vector(r, column->vector_at(from));
          break;
      }
    }
    column = std::move(rebuilt);
  }
  if (!rows_.payloads.empty()) rows_.payloads.resize(size());  // one per row, or none
  batch_.rows_ = std::move(rows_);
  batch_.caches_.clear();  // they were indexed by the old rows
}

}  // namespace winnow
