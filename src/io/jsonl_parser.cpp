#include "io/jsonl_parser.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "core/ascii.h"
#include "io/wide_json_numbers.h"

namespace winnow {

namespace {

static_assert(kRecordPadding >= simdjson::SIMDJSON_PADDING,
              "records are parsed in place: the batch padding must cover simdjson's");
constexpr size_t kExcerptBytes = 256;

}  // namespace

std::string JsonlParser::generated_id(DocKey key) {
  return fmt::format("{:05}-{:010}", key.shard(), key.row());
}

void JsonlParser::parse(DocBatch& batch, const std::string& file,
                        std::optional<uint32_t> key_shard) const {
  const uint32_t keys_of = key_shard.value_or(batch.shard);
  thread_local simdjson::dom::parser parser;
  std::string_view raw = batch.raw_bytes();
  auto fail = [&](const RawLine& line, InputError kind, std::string detail) {
    InputErrorRecord record;
    record.kind = kind;
    record.line = line.line_number;
    record.byte_offset = line.byte_offset;
    record.message = fmt::format("{}:{}: {}", file, line.line_number, detail);
    record.excerpt.assign(raw.substr(line.offset, std::min<uint64_t>(line.length, kExcerptBytes)));
    batch.errors.push_back(std::move(record));
  };

  batch.reserve(batch.raw_lines.size());
  for (const RawLine& line : batch.raw_lines) {
    std::string_view record = raw.substr(line.offset, line.length);
    if (line.byte_offset == 0 && record.substr(0, 3) == "\xEF\xBB\xBF") {
      record.remove_prefix(3);  // a UTF-8 byte order mark, as some Windows tools write
    }
    record = ascii_trim(record, kJsonWhitespace);
    if (record.empty()) {
      ++batch.blank_lines;
      continue;
    }
    simdjson::dom::element root;
    // The batch buffer is padded, so the record parses in place (no copy); numbers past what
    // simdjson holds read as strings of their text (the record keeps them as they are).
    auto error = parse_record(parser, record, root);
    if (error == simdjson::UTF8_ERROR) {
      fail(line, InputError::kInvalidUtf8, "invalid UTF-8 in the record");
      continue;
    }
    if (error) {
      fail(line, InputError::kMalformedJson,
           fmt::format("malformed JSON: {}", simdjson::error_message(error)));
      continue;
    }
    simdjson::dom::object object;
    if (root.get(object)) {
      fail(line, InputError::kNotAnObject, "the record is not a JSON object");
      continue;
    }
    simdjson::dom::element text_value;
    if (object[options_.text_field].get(text_value)) {
      fail(line, InputError::kMissingText,
           fmt::format("the record has no '{}' field", options_.text_field));
      continue;
    }
    std::string_view text;
    if (text_value.get(text)) {
      fail(line, InputError::kTextNotString,
           fmt::format("field '{}' is not a string", options_.text_field));
      continue;
    }
    DocKey key = DocKey::make(keys_of, line.line_number - 1);
    std::string id;
    bool id_generated = false;
    simdjson::dom::element id_value;
    if (object[options_.id_field].get(id_value) || id_value.is_null()) {
      id = generated_id(key);
      id_generated = true;
    } else if (id_value.is_string()) {
      id = std::string(id_value.get_string().value_unsafe());
    } else if (int64_t n; !id_value.get(n)) {
      id = fmt::format_int(n).str();  // the common case; minify() is much slower
    } else if (id_value.is_number()) {
      id = simdjson::minify(id_value);
    } else {
      fail(line, InputError::kInvalidId,
           fmt::format("field '{}' must be a string or a number", options_.id_field));
      continue;
    }
    batch.add_document(key, id, id_generated, text, record, line.line_number);
  }
  batch.raw_lines.clear();  // they are rows and errors now (DocBatch::source_records)
}

}  // namespace winnow
