#include "io/input_reader.h"

namespace winnow {

std::optional<InputFormat> input_format_from_name(std::string_view name) {
  if (name == "auto") return InputFormat::kAuto;
  if (name == "jsonl") return InputFormat::kJsonl;
  if (name == "warc") return InputFormat::kWarc;
  return std::nullopt;
}

InputFormat InputReader::format_of(const std::string& path, InputFormat configured) {
  if (configured != InputFormat::kAuto) return configured;
  return WarcReader::is_warc_path(path) ? InputFormat::kWarc : InputFormat::kJsonl;
}

InputReader::InputReader(const std::string& path, uint32_t shard_index,
                         const InputOptions& options) {
  if (format_of(path, options.format) == InputFormat::kWarc) {
    warc_ = std::make_unique<WarcReader>(path, shard_index, options.warc);
  } else {
    jsonl_ = std::make_unique<ShardReader>(path, shard_index, options.jsonl);
  }
}

std::unique_ptr<DocBatch> InputReader::next() { return warc_ ? warc_->next() : jsonl_->next(); }

uint64_t InputReader::compressed_bytes_read() const {
  return warc_ ? warc_->compressed_bytes_read() : jsonl_->compressed_bytes_read();
}

}  // namespace winnow
