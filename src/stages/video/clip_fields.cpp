#include "stages/video/clip_fields.h"

#include <fmt/format.h>

#include <cmath>

#include "core/hash.h"

namespace winnow::clip_fields {

std::optional<double> number(const DocBatch& batch, size_t row, std::string_view name) {
  const AnnotationColumn* column = batch.find_annotation(name);
  if (!column || !column->has(row)) return std::nullopt;
  if (column->type() == AnnotationType::kFloat) return column->float_at(row);
  if (column->type() == AnnotationType::kInt) return double(column->int_at(row));
  return std::nullopt;
}

std::optional<ClipSource> clip_source(const DocBatch& batch, size_t row) {
  const Payload* payload = batch.payload(row);
  if (!payload || payload->path.empty()) return std::nullopt;
  ClipSource source{payload->path, {payload->time_begin, payload->time_end}};
  if (source.span.end_s <= 0) {
    source.span.end_s = number(batch, row, kDuration).value_or(0);
  }
  return source;
}

std::string clip_id(std::string_view source_path, const ClipSpan& span) {
  std::string key = fmt::format("{}\n{}\n{}", source_path, std::llround(span.begin_s * 1000),
                                std::llround(span.end_s * 1000));
  const uint64_t hi = hash64(key, 0x636c6970);  // "clip"
  const uint64_t lo = hash64(key, 0x7370616e);  // "span"
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xffff,
                     hi & 0xffff, lo >> 48, lo & 0xffffffffffffULL);
}

}  // namespace winnow::clip_fields
