#include "io/document_rows.h"

#include <cstring>

#include "core/json_text.h"
#include "core/utf8.h"
#include "io/jsonl_parser.h"

namespace winnow {

DocumentRows::DocumentRows(uint32_t shard, std::string_view text_field)
    : shard_(shard), text_field_(text_field) {}

void DocumentRows::begin(uint64_t index, std::string_view text) {
  Pending p{};
  p.index = index;
  p.text_offset = data_.size();
  p.text_size = text.size();
  data_.append(text);
  p.record_offset = data_.size();
  data_.push_back('{');
  pending_.push_back(p);
}

void DocumentRows::add_json(std::string_view name, std::string_view json) {
  if (data_.back() != '{') data_.push_back(',');
  append_json_string(data_, name);
  data_.push_back(':');
  data_.append(json);
}

void DocumentRows::add_string(std::string_view name, std::string_view value) {
  if (data_.back() != '{') data_.push_back(',');
  append_json_string(data_, name);
  data_.push_back(':');
  if (is_valid_utf8(value)) {
    append_json_string(data_, value);
  } else {
    std::string clean;
    append_sanitized_utf8(clean, value);
    append_json_string(data_, clean);
  }
}

void DocumentRows::end(std::optional<std::string_view> id) {
  add_json(text_field_, "\"\"");
  data_.push_back('}');
  Pending& p = pending_.back();
  p.record_size = data_.size() - p.record_offset;
  if (id) {
    p.id_generated = false;
    p.id_offset = ids_.size();
    p.id_size = id->size();
    ids_.append(*id);
  }
}

void DocumentRows::finish(DocBatch& batch) {
  auto buffer = std::make_unique_for_overwrite<char[]>(data_.size() + kRecordPadding);
  std::memcpy(buffer.get(), data_.data(), data_.size());
  // Padding after the data lets simdjson parse the last record in place.
  std::memset(buffer.get() + data_.size(), ' ', kRecordPadding);
  const char* base = buffer.get();
  batch.set_raw_buffer(std::move(buffer), data_.size());
  batch.reserve(pending_.size());
  for (const Pending& p : pending_) {
    DocKey key = DocKey::make(shard_, p.index);
    std::string generated;
    if (p.id_generated) generated = JsonlParser::generated_id(key);
    std::string_view id = p.id_generated ? std::string_view(generated)
                                         : std::string_view(ids_).substr(p.id_offset, p.id_size);
    batch.add_document(key, id, p.id_generated, std::string_view(base + p.text_offset, p.text_size),
                       std::string_view(base + p.record_offset, p.record_size), p.index + 1);
    batch.mark_text_unchecked(batch.size() - 1);  // the text replaces the record's empty one
  }
  data_ = std::string();
  ids_.clear();
  pending_.clear();
}

}  // namespace winnow
