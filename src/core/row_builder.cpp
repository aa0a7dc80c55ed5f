#include "core/row_builder.h"

#include <fmt/format.h>

#include <limits>
#include <stdexcept>

namespace winnow {

RowBuilder::RowBuilder(DocBatch& batch) : batch_(batch) { source_.reserve(batch.size()); }

size_t RowBuilder::add_row(size_t from) {
  if (finished_) throw std::logic_error("RowBuilder used after finish()");
  source_.push_back(from);
  keys_.push_back(batch_.keys_[from]);
  ids_.push_back(batch_.ids_[from]);
  texts_.push_back(batch_.texts_[from]);
  records_.push_back(batch_.records_[from]);
  lines_.push_back(batch_.lines_[from]);
  lineage_.push_back(batch_.lineage_[from]);
  payloads_.push_back(from < batch_.payloads_.size() ? batch_.payloads_[from] : Payload{});
  flags_.push_back(batch_.flags_[from]);
  reasons_.push_back(batch_.reasons_[from]);
  scores_.push_back(batch_.scores_[from]);
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
  reasons_[r] = state;
  scores_[r] = std::numeric_limits<double>::quiet_NaN();
  return r;
}

size_t RowBuilder::add_child(size_t parent, uint32_t index, ReasonId origin,
                             std::string_view text) {
  size_t r = add_row(parent);
  keys_[r] = DocKey::child(batch_.keys_[parent], index);
  texts_[r] = batch_.in_raw(text) || batch_.arena_.owns(text) ? text : batch_.arena_.append(text);
  ids_[r] = batch_.arena_.append(fmt::format("{}-{}", batch_.ids_[parent], index));
  const RowLineage& up = batch_.lineage_[parent];
  if (up.depth == std::numeric_limits<uint8_t>::max()) {
    throw std::length_error("fan-out nested deeper than 255 levels");
  }
  lineage_[r] = {batch_.keys_[parent], origin, static_cast<uint8_t>(up.depth + 1), up.kind, index};
  // The child's text is new to the output (a part of its parent's), and its id is its own:
  // written from the id column in place of the record's (as for a generated id).
  flags_[r] = static_cast<uint8_t>(batch_.flags_[parent] | DocBatch::kTextChanged |
                                   DocBatch::kIdGenerated);
  reasons_[r] = kKept;
  scores_[r] = std::numeric_limits<double>::quiet_NaN();
  return r;
}

size_t RowBuilder::add_merged(size_t like, ReasonId origin, std::string_view text) {
  size_t r = add_row(like);
  texts_[r] = batch_.in_raw(text) || batch_.arena_.owns(text) ? text : batch_.arena_.append(text);
  lineage_[r].origin = origin;
  flags_[r] = static_cast<uint8_t>(flags_[r] | DocBatch::kTextChanged);
  reasons_[r] = kKept;
  scores_[r] = std::numeric_limits<double>::quiet_NaN();
  return r;
}

void RowBuilder::set_id(size_t new_row, std::string_view id) {
  ids_[new_row] = batch_.arena_.append(id);
  flags_[new_row] = static_cast<uint8_t>(flags_[new_row] | DocBatch::kIdGenerated);
}

void RowBuilder::set_kind(size_t new_row, ItemKind kind) { lineage_[new_row].kind = kind; }

void RowBuilder::set_payload(size_t new_row, Payload payload) {
  payloads_[new_row] = std::move(payload);
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
      }
    }
    column = std::move(rebuilt);
  }
  bool any_payload = false;
  for (const Payload& p : payloads_) any_payload = any_payload || !p.empty();
  batch_.keys_ = std::move(keys_);
  batch_.ids_ = std::move(ids_);
  batch_.texts_ = std::move(texts_);
  batch_.records_ = std::move(records_);
  batch_.lines_ = std::move(lines_);
  batch_.lineage_ = std::move(lineage_);
  if (any_payload) {
    batch_.payloads_ = std::move(payloads_);
  } else {
    batch_.payloads_.clear();
  }
  batch_.flags_ = std::move(flags_);
  batch_.reasons_ = std::move(reasons_);
  batch_.scores_ = std::move(scores_);
  batch_.cache_.reset();  // it was indexed by the old rows
}

}  // namespace winnow
