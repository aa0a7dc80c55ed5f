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

void DocBatch::reserve(size_t documents) {
  keys_.reserve(documents);
  ids_.reserve(documents);
  texts_.reserve(documents);
  records_.reserve(documents);
  lines_.reserve(documents);
  lineage_.reserve(documents);
  flags_.reserve(documents);
  reasons_.reserve(documents);
  scores_.reserve(documents);
}

void DocBatch::add_document(DocKey key, std::string_view id, bool id_generated,
                            std::string_view text, std::string_view record, uint64_t line) {
  keys_.push_back(key);
  ids_.push_back(in_raw(id) ? id : arena_.append(id));
  texts_.push_back(in_raw(text) ? text : arena_.append(text));
  records_.push_back(record);
  lines_.push_back(line);
  lineage_.push_back({key, kKept, 0, ItemKind::kDocument, 0});
  flags_.push_back(id_generated ? kIdGenerated : 0);
  reasons_.push_back(kKept);
  scores_.push_back(std::numeric_limits<double>::quiet_NaN());
  if (!payloads_.empty()) payloads_.emplace_back();
  ++source_rows_;
}

void DocBatch::add_item(DocKey key, ItemKind kind, std::string_view id, Payload payload,
                        uint64_t line) {
  add_document(key, id, false, {}, {}, line);
  lineage_.back().kind = kind;
  set_payload(size() - 1, std::move(payload));
}

void DocBatch::set_payload(size_t i, Payload payload) {
  if (payloads_.size() < size()) payloads_.resize(size());
  payloads_[i] = std::move(payload);
}

void DocBatch::set_text(size_t i, std::string_view text) {
  texts_[i] = arena_.append(text);
  flags_[i] = static_cast<uint8_t>((flags_[i] | kTextChanged) & ~kTextUnchecked);
  if (cache_) cache_->text_changed(i);
}

void DocBatch::set_id(size_t i, std::string_view id) { ids_[i] = arena_.append(id); }

void DocBatch::drop(size_t i, ReasonId reason, double score) {
  reasons_[i] = reason;
  scores_[i] = score;
}

void DocBatch::drop(size_t i, ReasonId reason) {
  drop(i, reason, std::numeric_limits<double>::quiet_NaN());
}

size_t DocBatch::kept_count() const {
  return static_cast<size_t>(std::count(reasons_.begin(), reasons_.end(), kKept));
}

AnnotationColumn& DocBatch::annotation(std::string_view name, AnnotationType type) {
  for (auto& column : annotations_) {
    if (column->name() == name) return *column;
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
