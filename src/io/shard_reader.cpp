#include "io/shard_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace winnow {

namespace {
constexpr size_t kReadStep = 256 << 10;  // small steps keep the carried-over tail small
constexpr size_t kExcerptBytes = 256;
}  // namespace

ShardReader::ShardReader(std::string path, uint32_t shard_index, ReaderOptions options)
    : path_(std::move(path)), shard_(shard_index), options_(options) {}

void ShardReader::add_error(DocBatch& batch, InputError kind, std::string message,
                            std::string_view excerpt) {
  InputErrorRecord record;
  record.kind = kind;
  record.line = next_line_;
  record.byte_offset = stream_offset_;
  record.message = std::move(message);
  record.excerpt.assign(excerpt.substr(0, kExcerptBytes));
  batch.errors.push_back(std::move(record));
}

std::unique_ptr<DocBatch> ShardReader::next() {
  auto batch = batches_.next(finished_);
  if (!batch || batch->end_of_shard) return batch;
  if (!opened_) {
    opened_ = true;
    StreamError error;
    source_ = ByteSource::open(path_, &error);
    if (!source_) {
      add_error(*batch, error.kind, error.message, {});
      finished_ = true;
      return batch;
    }
  }

  size_t capacity = std::max(options_.batch_bytes, carry_.size() + kReadStep);
  auto buffer = std::make_unique_for_overwrite<char[]>(capacity + kRecordPadding);
  std::memcpy(buffer.get(), carry_.data(), carry_.size());
  size_t size = carry_.size();
  carry_.clear();
  size_t line_start = 0;
  size_t scan = 0;
  uint64_t batch_start_offset = stream_offset_;

  auto report_too_long = [&](std::string_view line) {
    add_error(*batch, InputError::kLineTooLong,
              fmt::format("{}:{}: line is longer than max_line_bytes ({} bytes)", path_,
                          next_line_, options_.max_line_bytes),
              line);
  };

  while (batch->raw_lines.size() < options_.batch_lines) {
    if (auto* nl = static_cast<char*>(std::memchr(buffer.get() + scan, '\n', size - scan))) {
      size_t end = static_cast<size_t>(nl - buffer.get());
      if (discarding_) {
        discarding_ = false;  // the over-long line was reported when it crossed the limit
      } else if (end - line_start > options_.max_line_bytes) {
        // Whole in the buffer, but still too long: the limit must not depend on batch sizes.
        report_too_long(std::string_view(buffer.get() + line_start, end - line_start));
      } else {
        batch->raw_lines.push_back({line_start, end - line_start, next_line_, stream_offset_});
      }
      stream_offset_ += end + 1 - line_start;
      ++next_line_;
      line_start = scan = end + 1;
      continue;
    }
    scan = size;
    if (!discarding_ && size - line_start > options_.max_line_bytes) {
      report_too_long(std::string_view(buffer.get() + line_start, size - line_start));
      discarding_ = true;
    }
    if (discarding_) {  // forget the bytes of the over-long line read so far
      stream_offset_ += size - line_start;
      size = scan = line_start;
    }
    if (size == capacity) {
      if (!batch->raw_lines.empty()) break;  // full: the partial line goes to the next batch
      // One line fills the buffer: grow it (bounded by max_line_bytes above).
      size_t grown = capacity * 2;
      auto bigger = std::make_unique_for_overwrite<char[]>(grown + kRecordPadding);
      std::memcpy(bigger.get(), buffer.get(), size);
      buffer = std::move(bigger);
      capacity = grown;
    }
    size_t n = source_->read(buffer.get() + size, std::min(capacity - size, kReadStep));
    if (n == 0) {
      finished_ = true;
      if (source_->failed()) {
        // What was read of the last line is lost with the rest of the stream.
        add_error(*batch, source_->error().kind,
                  fmt::format("{} (after line {}); the rest of the file is unreadable",
                              source_->error().message, next_line_ - 1),
                  {});
      } else if (total_bytes_ == 0 && size == 0) {
        add_error(*batch, InputError::kEmptyFile, fmt::format("{}: file is empty", path_), {});
      } else if (size > line_start && !discarding_) {
        // The last line has no newline: still a line.
        batch->raw_lines.push_back({line_start, size - line_start, next_line_, stream_offset_});
        stream_offset_ += size - line_start;
        ++next_line_;
        line_start = size;
      }
      break;
    }
    size += n;
    total_bytes_ += n;
  }
  if (!finished_) carry_.assign(buffer.get() + line_start, size - line_start);
  // Padding after the data lets simdjson parse the last line in place.
  std::memset(buffer.get() + size, ' ', kRecordPadding);
  batch->raw_input_bytes = stream_offset_ - batch_start_offset;
  if (finished_ && batch->raw_lines.empty() && batch->errors.empty()) {
    // The file ended exactly at the last batch's end: this one is the end marker, not an
    // empty batch every stage would be handed (a model stage pays for a batch, empty or not).
    return batches_.end_here(std::move(batch));
  }
  batch->set_raw_buffer(std::move(buffer), size);
  return batch;
}

}  // namespace winnow
