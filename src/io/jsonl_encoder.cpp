#include "io/jsonl_encoder.h"

#include <cmath>

#include "core/json_text.h"
#include "core/utf8.h"
#include "io/json_members.h"

namespace winnow {

namespace {

void append_annotation(std::string& out, const AnnotationColumn& column, size_t i) {
  append_json_string(out, column.name());
  out.push_back(':');
  switch (column.type()) {
    case AnnotationType::kFloat:
      append_json_number(out, column.float_at(i));
      break;
    case AnnotationType::kInt:
      out += std::to_string(column.int_at(i));
      break;
    case AnnotationType::kString:
      append_json_string(out, column.string_at(i));
      break;
  }
}

}  // namespace

void JsonlEncoder::write_document(std::string& out, const DocBatch& batch, size_t i,
                                  std::string_view extra) const {
  bool annotated = false;
  for (const auto& column : batch.annotations()) annotated |= column->has(i);
  if (!batch.text_changed(i) && !batch.id_generated(i) && !annotated && extra.empty()) {
    out.append(batch.record(i));
    out.push_back('\n');
    return;
  }

  auto annotated_field = [&](std::string_view key) {
    for (const auto& column : batch.annotations()) {
      if (column->has(i) && column->name() == key) return true;
    }
    return false;
  };
  auto overridden = [&](std::string_view key) {
    if (batch.id_generated(i) && key == options_.id_field) return true;
    return annotated_field(key);
  };
  thread_local std::vector<JsonMember> members;
  split_members(batch.record(i), members);
  out.push_back('{');
  bool first = true;
  auto separator = [&]() {
    if (!first) out.push_back(',');
    first = false;
  };
  for (const JsonMember& member : members) {
    if (overridden(member.key)) continue;
    separator();
    if (member.key == options_.text_field && batch.text_changed(i)) {
      append_json_string(out, options_.text_field);
      out.push_back(':');
      if (batch.text_unchecked(i) && !is_valid_utf8(batch.text(i))) {
        thread_local std::string clean;
        clean.clear();
        append_sanitized_utf8(clean, batch.text(i));
        append_json_string(out, clean);
      } else {
        append_json_string(out, batch.text(i));
      }
    } else {
      out.append(member.member);
    }
  }
  // An annotation of the id field's name (add_id) is the id; writing both duplicates the key.
  if (batch.id_generated(i) && !annotated_field(options_.id_field)) {
    separator();
    append_json_string(out, options_.id_field);
    out.push_back(':');
    append_json_string(out, batch.id(i));
  }
  for (const auto& column : batch.annotations()) {
    if (!column->has(i)) continue;
    separator();
    append_annotation(out, *column, i);
  }
  if (!extra.empty()) {
    separator();
    out.append(extra);
  }
  out += "}\n";
}

void JsonlEncoder::encode(DocBatch& batch, const std::string& file) const {
  // Most documents are written back as they came: one allocation for the whole batch.
  batch.encoded_kept.reserve(batch.raw_bytes().size() + batch.size());
  std::string extra;
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch.kept(i)) {
      write_document(batch.encoded_kept, batch, i, {});
      batch.encoded_kept_ends.push_back(batch.encoded_kept.size());
      continue;
    }
    if (!options_.write_rejected) continue;
    const DropReason& reason = reasons_.at(batch.drop_reason(i));
    extra.clear();
    extra += "\"winnow_drop\":{\"stage\":";
    append_json_string(extra, reason.stage);
    extra += ",\"reason\":";
    append_json_string(extra, reason.reason);
    if (!std::isnan(batch.drop_score(i))) {
      extra += ",\"score\":";
      append_json_number(extra, batch.drop_score(i));
    }
    extra.push_back('}');
    write_document(batch.encoded_rejected, batch, i, extra);
  }
  for (const InputErrorRecord& error : batch.errors) {
    JsonWriter line(false);
    line.begin_object();
    line.key("file").value(file);
    line.key("line").value(error.line);
    line.key("byte_offset").value(error.byte_offset);
    line.key("error").value(input_error_name(error.kind));
    line.key("message").value(error.message);
    std::string excerpt;
    append_sanitized_utf8(excerpt, error.excerpt);
    line.key("excerpt").value(excerpt);
    line.end_object();
    batch.encoded_errors += line.str();
    batch.encoded_errors.push_back('\n');
  }
}

}  // namespace winnow
