#include "io/warc_record_builder.h"

#include <fmt/format.h>

#include <cstring>

#include "core/json_text.h"
#include "core/utf8.h"
#include "io/http_response_head.h"
#include "io/jsonl_parser.h"
#include "io/warc_header_parser.h"

namespace winnow {

namespace {

// Appends `"key":"value"` (with a leading comma unless it is the object's first member).
void append_json_field(std::string& out, std::string_view key, std::string_view value) {
  if (out.back() != '{') out.push_back(',');
  append_json_string(out, key);
  out.push_back(':');
  if (is_valid_utf8(value)) {
    append_json_string(out, value);
  } else {
    std::string clean;
    append_sanitized_utf8(clean, value);
    append_json_string(out, clean);
  }
}

}  // namespace

WarcRecordBuilder::WarcRecordBuilder(uint32_t shard, std::string_view text_field)
    : shard_(shard), text_field_(text_field) {}

void WarcRecordBuilder::add(uint64_t index, std::string_view payload, const WarcHeaders& headers,
                            const HttpResponseHead* http) {
  Pending p;
  p.index = index;
  p.payload_offset = data_.size();
  p.payload_size = payload.size();
  data_.append(payload);
  p.record_offset = data_.size();
  data_.push_back('{');
  append_json_field(data_, "url", headers.target_uri);
  append_json_field(data_, "warc_record_id", headers.record_id);
  append_json_field(data_, "warc_date", headers.date);
  append_json_field(data_, "content_type", http ? http->content_type : headers.content_type);
  if (http) data_ += fmt::format(",\"http_status\":{}", http->status);
  data_.push_back(',');
  append_json_string(data_, text_field_);
  data_ += ":\"\"}";
  p.record_size = data_.size() - p.record_offset;
  pending_.push_back(p);
}

void WarcRecordBuilder::finish(DocBatch& batch) {
  auto buffer = std::make_unique_for_overwrite<char[]>(data_.size() + kRecordPadding);
  std::memcpy(buffer.get(), data_.data(), data_.size());
  std::memset(buffer.get() + data_.size(), ' ', kRecordPadding);
  const char* base = buffer.get();
  batch.set_raw_buffer(std::move(buffer), data_.size());
  batch.reserve(pending_.size());
  for (const Pending& p : pending_) {
    DocKey key = DocKey::make(shard_, p.index);
    batch.add_document(key, JsonlParser::generated_id(key), true,
                       std::string_view(base + p.payload_offset, p.payload_size),
                       std::string_view(base + p.record_offset, p.record_size), p.index + 1);
    batch.mark_text_unchecked(batch.size() - 1);
  }
  data_ = std::string();
  pending_.clear();
}

}  // namespace winnow
