#include "dedup/field_number.h"

#include <simdjson.h>

#include <cmath>

#include "io/wide_json_numbers.h"

namespace winnow {

std::vector<std::string> split_field_path(const std::string& field) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t dot = field.find('.', start);
    parts.push_back(field.substr(start, dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

FieldNumber::FieldNumber(std::string field)
    : field_(std::move(field)), path_(split_field_path(field_)) {}

double FieldNumber::of(const DocBatch& batch, size_t row) const {
  if (const AnnotationColumn* column = batch.find_annotation(field_)) {
    if (!column->has(row)) return NAN;
    if (column->type() == AnnotationType::kFloat) return column->float_at(row);
    if (column->type() == AnnotationType::kInt) return static_cast<double>(column->int_at(row));
    return NAN;
  }
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element element;
  std::string_view record = batch.record(row);
  // Records are padded (kRecordPadding), so they parse in place.
  if (record.empty() || parse_record(parser, record, element)) return NAN;
  for (const std::string& key : path_) {
    simdjson::dom::object object;
    if (element.get(object) || object[key].get(element)) return NAN;
  }
  double value;
  if (!element.get_double().get(value)) return value;
  int64_t integer;
  if (!element.get_int64().get(integer)) return static_cast<double>(integer);
  uint64_t unsigned_integer;
  if (!element.get_uint64().get(unsigned_integer)) return static_cast<double>(unsigned_integer);
  return NAN;
}

}  // namespace winnow
