#include "io/jsonl_encoder.h"

#include <cmath>

#include "core/json_text.h"
#include "core/utf8.h"
#include "io/json_members.h"
#include "io/output_buffers.h"
#include "io/output_names.h"
#include "io/shard_output.h"

namespace winnow {

namespace {

// Bytes a rejected line may add to its record (the winnow_drop member), for the buffer's size:
// a guess, not a bound (the buffer grows past it if need be).
constexpr size_t kDropMemberRoom = 128;

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
    case AnnotationType::kFloatVector:
      append_json_float_array(out, column.vector_at(i));
      break;
  }
}

// Whether row i has an annotation named `key` (it then replaces a field of that name).
bool annotated(const DocBatch& batch, size_t i, std::string_view key) {
  for (const auto& column : batch.annotations()) {
    if (column->has(i) && column->name() == key) return true;
  }
  return false;
}

// Appends row i's annotations, then `extra`, as members of the object open at the end of `out`
// (`empty`: no member in it yet), and closes it and the line.
void close_with_annotations(std::string& out, const DocBatch& batch, size_t i,
                            std::string_view extra, bool empty) {
  auto separator = [&] {
    if (!empty) out.push_back(',');
    empty = false;
  };
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

// Notes which of the encoder's own fields row i's line holds.
void note_fields(DocBatch::EncodedFields& fields, const DocBatch& batch, size_t i) {
  const auto& columns = batch.annotations();
  if (fields.first_row.size() < columns.size()) {
    fields.first_row.resize(columns.size(), DocBatch::EncodedFields::kNoRow);
  }
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c]->has(i) && fields.first_row[c] == DocBatch::EncodedFields::kNoRow) {
      fields.first_row[c] = static_cast<uint32_t>(i);
    }
  }
  fields.generated_id |= batch.id_generated(i);
}

}  // namespace

void JsonlEncoder::write_document(std::string& out, const DocBatch& batch, size_t i,
                                  std::string_view extra) const {
  bool any_annotation = false;
  for (const auto& column : batch.annotations()) any_annotation |= column->has(i);
  if (!batch.text_changed(i) && !batch.id_generated(i) && !any_annotation && extra.empty()) {
    out.append(batch.record(i));
    out.push_back('\n');
    return;
  }

  auto overridden = [&](std::string_view key) {
    if (batch.id_generated(i) && key == options_.id_field) return true;
    return annotated(batch, i, key);
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
  if (batch.id_generated(i) && !annotated(batch, i, options_.id_field)) {
    separator();
    append_json_string(out, options_.id_field);
    out.push_back(':');
    append_json_string(out, batch.id(i));
  }
  close_with_annotations(out, batch, i, extra, first);
}

void JsonlEncoder::write_media_item(std::string& out, const DocBatch& batch, size_t i,
                                    const std::string& file, const std::string& shard_name,
                                    std::string_view extra) const {
  // An annotation of the same name as a field below replaces it (add_id's id, say).
  JsonWriter line(false);
  line.begin_object();
  auto field = [&](std::string_view key) -> JsonWriter* {
    return annotated(batch, i, key) ? nullptr : &line.key(key);
  };
  if (auto* f = field(options_.id_field)) f->value(batch.id(i));
  if (auto* f = field("kind")) f->value(item_kind_name(batch.kind(i)));
  if (const Payload* payload = batch.payload(i)) {
    if (!payload->media_type.empty()) {
      if (auto* f = field("media_type")) f->value(payload->media_type);
    }
    if (batch.kind(i) == ItemKind::kClip && payload->in_memory()) {
      if (auto* f = field("bytes")) f->value(payload->size);
      // Only kept clips are written (ShardOutput::write_clip).
      if (auto* f = batch.kept(i) ? field("file") : nullptr) {
        f->value(
            fmt::format("{}/{}.mp4", output_names::kClipsDir, ShardOutput::clip_stem(batch, i)));
      }
    } else if (!payload->members.empty()) {
      // A WebDataset sample: its key (the members' names up to the first dot of the file
      // name, whatever a stage did to the id) and source shard; its members went to the
      // shard's tars.
      auto dot = [](std::string_view name) {
        size_t slash = name.rfind('/');
        return name.find('.', slash == std::string_view::npos ? 0 : slash + 1);
      };
      std::string_view first = payload->members.front().name;
      if (auto* f = field("key")) f->value(first.substr(0, dot(first)));
      if (auto* f = field("shard")) f->value(file);
      if (auto* f = field("bytes")) f->value(payload->size);
      if (auto* f = field("members")) {
        f->begin_array();
        for (const PayloadMember& m : payload->members) {
          size_t at = dot(m.name);
          line.value(at == std::string_view::npos ? std::string_view()
                                                  : std::string_view(m.name).substr(at + 1));
        }
        line.end_array();
      }
    } else if (batch.kind(i) == ItemKind::kAudio) {
      // A NeMo manifest line: the audio written for a kept item (resample's FLAC, relative
      // to the kept manifest's folder, as NeMo resolves it), else the source file.
      if (auto* f = field("audio_filepath")) {
        f->value(payload->in_memory() && batch.kept(i)
                     ? std::string(output_names::kFilesDir) + "/" +
                           ShardOutput::media_file_name(shard_name, batch, i)
                     : payload->path);
      }
    } else if (payload->in_memory()) {
      if (auto* f = field("bytes")) f->value(payload->size);
      // Only kept items' bytes are written.
      if (auto* f = batch.kept(i) ? field("file") : nullptr) {
        f->value(std::string(output_names::kFilesDir) + "/" +
                 ShardOutput::media_file_name(shard_name, batch, i));
      }
    } else if (auto* f = field("path")) {
      f->value(payload->path);
    }
  }
  if (auto* f = field("source")) f->value(file);
  out += line.str();  // still open: the annotations and `extra` follow
  close_with_annotations(out, batch, i, extra, line.str().size() == 1);
}

void JsonlEncoder::write_row_error(DocBatch& batch, size_t i, const DropReason& reason,
                                   const std::string& file) const {
  const AnnotationColumn* message = batch.find_annotation(kRowErrorField);
  JsonWriter line(false);
  line.begin_object();
  line.key("file").value(file);
  line.key("id").value(batch.id(i));
  line.key("kind").value(item_kind_name(batch.kind(i)));
  line.key("error").value(reason.qualified());
  line.key("message").value(message && message->has(i) ? message->string_at(i) : std::string());
  line.end_object();
  batch.encoded_errors += line.str();
  batch.encoded_errors.push_back('\n');
}

void JsonlEncoder::encode(DocBatch& batch, const std::string& file,
                          const std::string& shard_name) const {
  // Most documents are written back as they came: one buffer for the whole batch, taken from
  // those earlier batches were written from (io/output_buffers.h), large enough up front.
  if (options_.write_kept && batch.encoded_kept.empty()) {
    batch.encoded_kept = OutputBuffers::take(batch.raw_bytes().size() + batch.size());
  }
  if (options_.write_rejected && batch.encoded_rejected.empty()) {
    size_t rejected_bytes = 0;  // the records, and room for winnow_drop on each
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) rejected_bytes += batch.record(i).size() + kDropMemberRoom;
    }
    if (rejected_bytes > 0) batch.encoded_rejected = OutputBuffers::take(rejected_bytes);
  }
  std::string extra;
  for (size_t i = 0; i < batch.size(); ++i) {
    const bool media = batch.kind(i) != ItemKind::kDocument;
    if (batch.kept(i)) {
      if (!options_.write_kept) continue;
      if (media) {
        write_media_item(batch.encoded_kept, batch, i, file, shard_name, {});
      } else {
        write_document(batch.encoded_kept, batch, i, {});
      }
      batch.encoded_kept_ends.push_back(batch.encoded_kept.size());
      note_fields(batch.encoded_kept_fields, batch, i);
      continue;
    }
    const DropReason& reason = reasons_.at(batch.drop_reason(i));
    if (reason.error()) {
      write_row_error(batch, i, reason, file);
      continue;
    }
    // A row replaced by its children or merged into another is neither output nor rejected:
    // what it became is.
    if (!options_.write_rejected || !reason.dropped()) continue;
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
    if (media) {
      write_media_item(batch.encoded_rejected, batch, i, file, shard_name, extra);
    } else {
      write_document(batch.encoded_rejected, batch, i, extra);
    }
    note_fields(batch.encoded_rejected_fields, batch, i);
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
