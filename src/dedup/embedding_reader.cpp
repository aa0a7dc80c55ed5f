#include "dedup/embedding_reader.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>

#include "dedup/field_number.h"
#include "io/wide_json_numbers.h"

namespace winnow {

EmbeddingReader::EmbeddingReader(std::string field)
    : field_(std::move(field)), path_(split_field_path(field_)) {}

std::string EmbeddingReader::read(const DocBatch& batch, size_t row,
                                  std::vector<float>& out) const {
  out.clear();
  // An `embed` stage earlier in the pipeline: its float-vector column of that name.
  if (const AnnotationColumn* column = batch.find_annotation(field_);
      column && column->type() == AnnotationType::kFloatVector && column->has(row)) {
    std::span<const float> values = column->vector_at(row);
    for (size_t i = 0; i < values.size(); ++i) {
      if (!std::isfinite(values[i])) {
        return fmt::format("embedding field '{}': item {} is not a finite float", field_, i);
      }
    }
    out.assign(values.begin(), values.end());
    if (out.empty()) return fmt::format("embedding field '{}' is an empty array", field_);
    return {};
  }
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element element;
  std::string_view record = batch.record(row);
  // Records are padded (kRecordPadding), so they parse in place.
  if (record.empty() || parse_record(parser, record, element)) {
    return fmt::format("no JSON record to read the embedding field '{}' from", field_);
  }
  for (const std::string& key : path_) {
    simdjson::dom::object object;
    if (element.get(object) || object[key].get(element)) {
      return fmt::format("embedding field '{}' is missing", field_);
    }
  }
  simdjson::dom::array array;
  if (element.get(array)) {
    return fmt::format("embedding field '{}' is not an array of numbers", field_);
  }
  size_t index = 0;
  for (simdjson::dom::element item : array) {
    double value;
    if (item.is_double()) {
      value = item.get_double().value_unsafe();
    } else if (item.is_int64()) {
      value = static_cast<double>(item.get_int64().value_unsafe());
    } else if (item.is_uint64()) {
      value = static_cast<double>(item.get_uint64().value_unsafe());
    } else {
      return fmt::format("embedding field '{}': item {} is not a number", field_, index);
    }
    float single = static_cast<float>(value);
    if (!std::isfinite(single)) {
      return fmt::format("embedding field '{}': item {} is not a finite float", field_, index);
    }
    out.push_back(single);
    ++index;
  }
  if (out.empty()) return fmt::format("embedding field '{}' is an empty array", field_);
  return {};
}

}  // namespace winnow
