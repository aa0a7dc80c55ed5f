#include "core/doc_batch.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace winnow {

AnnotationColumn::AnnotationColumn(std::string name, AnnotationType type, size_t rows)
    : name_(std::move(name)), type_(type), present_(rows, 0) {
  switch (type_) {
    case AnnotationType::kFloat:
      floats_.assign(rows, 0.0);
      break;
    case AnnotationType::kInt:
      ints_.assign(rows, 0);
      break;
    case AnnotationType::kString:
      strings_.assign(rows, std::string());
      break;
    case AnnotationType::kFloatVector:
      vector_spans_.assign(rows, VectorSpan{});
      break;
  }
}

void AnnotationColumn::ensure_rows(size_t rows) {
  if (present_.size() >= rows) return;
  present_.resize(rows, 0);
  switch (type_) {
    case AnnotationType::kFloat:
      floats_.resize(rows, 0.0);
      break;
    case AnnotationType::kInt:
      ints_.resize(rows, 0);
      break;
    case AnnotationType::kString:
      strings_.resize(rows);
      break;
    case AnnotationType::kFloatVector:
      vector_spans_.resize(rows, VectorSpan{});
      break;
  }
}

void AnnotationColumn::set_float(size_t row, double value) {
  floats_[row] = value;
  present_[row] = 1;
}
void AnnotationColumn::set_int(size_t row, int64_t value) {
  ints_[row] = value;
  present_[row] = 1;
}
void AnnotationColumn::set_string(size_t row, std::string_view value) {
  strings_[row].assign(value);
  present_[row] = 1;
}

void AnnotationColumn::set_vector(size_t row, std::span<const float> values) {
  vector_spans_[row] = {vector_values_.size(), values.size()};
  vector_values_.insert(vector_values_.end(), values.begin(), values.end());
  present_[row] = 1;
}

void DocBatch::set_raw_buffer(std::unique_ptr<char[]> buffer, size_t size) {
  raw_ = std::move(buffer);
  raw_size_ = size;
}

bool DocBatch::in_raw(std::string_view bytes) const {
  // std::less gives a total order on pointers, so this is well defined for unrelated buffers.
  std::less<const char*> before;
  return raw_ && !before(bytes.data(), raw_.get()) &&
         !before(raw_.get() + raw_size_, bytes.data() + bytes.size());
}

void DocBatch::Rows::reserve(size_t rows) {
  keys.reserve(rows);
  ids.reserve(rows);
  texts.reserve(rows);
  records.reserve(rows);
  lines.reserve(rows);
  lineage.reserve(rows);
  flags.reserve(rows);
  reasons.reserve(rows);
  scores.reserve(rows);
}

void DocBatch::Rows::append_row(const Rows& from, size_t row) {
  keys.push_back(from.keys[row]);
  ids.push_back(from.ids[row]);
  texts.push_back(from.texts[row]);
  records.push_back(from.records[row]);
  lines.push_back(from.lines[row]);
  lineage.push_back(from.lineage[row]);
  if (!from.payloads.empty()) {
    payloads.resize(keys.size() - 1);
    payloads.push_back(from.payloads[row]);
  }
  flags.push_back(from.flags[row]);
  reasons.push_back(from.reasons[row]);
  scores.push_back(from.scores[row]);
}

void DocBatch::reserve(size_t documents) { rows_.reserve(documents); }

void DocBatch::add_document(DocKey key, std::string_view id, bool id_generated,
                            std::string_view text, std::string_view record, uint64_t line) {
  rows_.keys.push_back(key);
  rows_.ids.push_back(in_raw(id) ? id : arena_.append(id));
  rows_.texts.push_back(in_raw(text) ? text : arena_.append(text));
  rows_.records.push_back(record);
  rows_.lines.push_back(line);
  rows_.lineage.push_back({key, kKept, 0, ItemKind::kDocument, 0});
  rows_.flags.push_back(id_generated ? kIdGenerated : 0);
  rows_.reasons.push_back(kKept);
  rows_.scores.push_back(std::numeric_limits<double>::quiet_NaN());
  if (!rows_.payloads.empty()) rows_.payloads.emplace_back();
  ++source_rows_;
}

void DocBatch::add_item(DocKey key, ItemKind kind, std::string_view id, Payload payload,
                        uint64_t line, std::string_view text) {
  add_document(key, id, false, text, {}, line);
  rows_.lineage.back().kind = kind;
  set_payload(size() - 1, std::move(payload));
}

void DocBatch::set_payload(size_t i, Payload payload) {
  if (rows_.payloads.size() < size()) rows_.payloads.resize(size());
  rows_.payloads[i] = std::move(payload);
}

void DocBatch::set_text(size_t i, std::string_view text) {
  rows_.texts[i] = arena_.append(text);
  rows_.flags[i] = static_cast<uint8_t>((rows_.flags[i] | kTextChanged) & ~kTextUnchecked);
  for (auto& cache : caches_) cache->text_changed(i);
}

void DocBatch::set_id(size_t i, std::string_view id) { rows_.ids[i] = arena_.append(id); }

void DocBatch::drop(size_t i, ReasonId reason, double score) {
  rows_.reasons[i] = reason;
  rows_.scores[i] = score;
}

void DocBatch::drop(size_t i, ReasonId reason) {
  drop(i, reason, std::numeric_limits<double>::quiet_NaN());
}

size_t DocBatch::kept_count() const {
  return static_cast<size_t>(std::count(rows_.reasons.begin(), rows_.reasons.end(), kKept));
}

AnnotationColumn& DocBatch::annotation(std::string_view name, AnnotationType type) {
  for (auto& column : annotations_) {
    if (column->name() != name) continue;
    column->ensure_rows(size());
    return *column;
  }
  annotations_.push_back(std::make_unique<AnnotationColumn>(std::string(name), type, size()));
  return *annotations_.back();
}

const AnnotationColumn* DocBatch::find_annotation(std::string_view name) const {
  for (const auto& column : annotations_) {
    if (column->name() == name) return column.get();
  }
  return nullptr;
}

}  // namespace winnow
