#include "io/audio_manifest_reader.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <filesystem>

#include "io/audio_item.h"

namespace winnow {

namespace {

// The item's own facts, measured by the decode (io/audio_item.h): a manifest's values of them
// are replaced, not kept.
bool measured_field(std::string_view key) {
  return key == "duration" || key == "sample_rate" || key == "channels" || key == "audio_codec";
}

// The field type a manifest member is kept as: numbers as numbers (written back in their
// shortest form, so 7 stays 7), anything else as a string (booleans, null, arrays and objects
// as their JSON text).
AnnotationType member_type(simdjson::dom::element value) {
  return value.is_number() ? AnnotationType::kFloat : AnnotationType::kString;
}

void keep_member(DocBatch& batch, size_t row, std::string_view key, simdjson::dom::element value) {
  AnnotationColumn& column = batch.annotation(key, member_type(value));
  if (column.type() == AnnotationType::kFloat) {
    column.set_float(row, value.get_double().value());
  } else if (value.is_string()) {
    column.set_string(row, value.get_string().value());
  } else {
    column.set_string(row, simdjson::minify(value));
  }
}

// A member whose type differs from the same member's on an earlier line of the batch (a
// field has one type per batch); empty when none does.
std::string_view mistyped_member(const DocBatch& batch, simdjson::dom::object object) {
  for (auto [key, value] : object) {
    const AnnotationColumn* column = batch.find_annotation(key);
    if (column && !measured_field(key) && column->type() != member_type(value)) return key;
  }
  return {};
}

}  // namespace

AudioManifestReader::AudioManifestReader(std::string path, uint32_t shard_index,
                                         size_t batch_records)
    : path_(std::move(path)),
      folder_(std::filesystem::path(path_).parent_path().string()),
      shard_(shard_index),
      batch_records_(std::max<size_t>(1, batch_records)),
      in_(path_, std::ios::binary) {}

std::unique_ptr<DocBatch> AudioManifestReader::next() {
  auto batch = batches_.next(ended_);
  if (!batch || batch->end_of_shard) return batch;
  if (!in_) {
    ended_ = true;
    batch->errors.push_back({InputError::kUnreadableFile, 0, 0,
                             fmt::format("{}: cannot read the manifest", path_), ""});
    return batch;
  }
  std::string line;
  uint64_t sample_bytes = 0;
  while (batch->size() + batch->errors.size() < batch_records_ &&
         sample_bytes < kMaxBatchSampleBytes) {
    if (!std::getline(in_, line)) {
      ended_ = true;
      break;
    }
    ++line_number_;
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      ++batch->blank_lines;
      continue;
    }
    sample_bytes += read_line(*batch, line);
  }
  if (batch->size() == 0 && batch->errors.empty() && batch->blank_lines == 0 && ended_) {
    return batches_.end_here(std::move(batch));
  }
  return batch;
}

uint64_t AudioManifestReader::read_line(DocBatch& batch, std::string_view line) {
  auto error = [&](InputError kind, const std::string& message) {
    batch.errors.push_back({kind, line_number_, 0,
                            fmt::format("{}:{}: {}", path_, line_number_, message),
                            std::string(line.substr(0, 64))});
    return uint64_t{0};
  };
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(line.data(), line.size()).get(root)) {
    return error(InputError::kMalformedJson, "not JSON");
  }
  simdjson::dom::object object;
  if (root.get_object().get(object)) return error(InputError::kNotAnObject, "not a JSON object");
  std::string_view audio_filepath;
  if (object["audio_filepath"].get_string().get(audio_filepath)) {
    return error(InputError::kMissingAudioPath, "no audio_filepath string");
  }
  if (std::string_view key = mistyped_member(batch, object); !key.empty()) {
    return error(InputError::kNotAnObject,
                 fmt::format("'{}' is a number on one line of the manifest and not on another "
                             "near it (a field has one type)",
                             key));
  }
  std::filesystem::path resolved(audio_filepath);
  if (resolved.is_relative() && !folder_.empty()) resolved = folder_ / resolved;
  auto audio = read_audio_file(batch, resolved.string(),
                               fmt::format("{}:{}: ", path_, line_number_), line_number_,
                               bytes_read_);
  if (!audio) return 0;
  const uint64_t sample_bytes = audio->samples.size() * sizeof(float);
  std::string_view text;
  const bool has_text = !object["text"].get_string().get(text);
  const size_t row = add_audio_item(batch, DocKey::make(shard_, row_++), audio_filepath,
                                    resolved.string(), line_number_, std::move(*audio),
                                    has_text ? text : std::string_view());
  for (auto [key, value] : object) {
    if (key != "audio_filepath" && !measured_field(key)) keep_member(batch, row, key, value);
  }
  return sample_bytes;
}

}  // namespace winnow
