#include "io/stored_batches.h"

#include <fmt/format.h>

#include <cstring>

#include "core/hash.h"

namespace winnow {

Result<std::unique_ptr<StoredBatchWriter>> StoredBatchWriter::create(const std::string& path) {
  // Level 1: the file is read back once and deleted; speed matters more than size.
  auto sink = ByteSink::create(path, Compression::kZstd, 1);
  if (!sink.is_ok()) return sink.status();
  return std::unique_ptr<StoredBatchWriter>(new StoredBatchWriter(std::move(sink).value()));
}

Status StoredBatchWriter::write_record(const std::string& bytes) {
  uint64_t header[2] = {bytes.size(), hash64(bytes)};
  WINNOW_RETURN_IF_ERROR(sink_->write(
      std::string_view(reinterpret_cast<const char*>(header), sizeof(header))));
  return sink_->write(bytes);
}

Status StoredBatchWriter::store(const DocBatch& batch) {
  std::string bytes;
  batch.serialize(bytes);
  std::lock_guard lock(mutex_);
  if (batch.sequence != next_sequence_) {
    if (batch.sequence < next_sequence_ || !early_.emplace(batch.sequence, std::move(bytes)).second) {
      return Status::errorf("batch {} of shard {} stored twice", batch.sequence, batch.shard);
    }
    return Status::ok();
  }
  WINNOW_RETURN_IF_ERROR(write_record(bytes));
  ++next_sequence_;
  // The batches that came early and now follow on.
  for (auto it = early_.begin(); it != early_.end() && it->first == next_sequence_;
       it = early_.erase(it)) {
    WINNOW_RETURN_IF_ERROR(write_record(it->second));
    ++next_sequence_;
  }
  return Status::ok();
}

Status StoredBatchWriter::commit() {
  std::lock_guard lock(mutex_);
  if (!early_.empty()) {
    return Status::errorf("stored batches: batch {} never came (batch {} did)", next_sequence_,
                          early_.begin()->first);
  }
  return sink_->finish();
}

StoredBatchReader::StoredBatchReader(std::string path, uint32_t shard)
    : path_(std::move(path)), shard_(shard) {}

std::unique_ptr<DocBatch> StoredBatchReader::damaged(const std::string& what) {
  ended_ = true;
  failure_ = fmt::format("{}: stored batches damaged ({}, near compressed byte {}); run again",
                         path_, what, source_ ? source_->compressed_bytes_read() : 0);
  return nullptr;
}

bool StoredBatchReader::read_exactly(char* out, size_t n) {
  while (n > 0) {
    size_t got = source_->read(out, n);
    if (got == 0) return false;
    out += got;
    n -= got;
  }
  return true;
}

std::unique_ptr<DocBatch> StoredBatchReader::next() {
  if (ended_) return nullptr;
  if (!opened_) {
    opened_ = true;
    StreamError error;
    source_ = ByteSource::open(path_, &error);
    if (!source_) return damaged(error.message);
  }
  uint64_t header[2];
  char* at = reinterpret_cast<char*>(header);
  size_t first = source_->read(at, sizeof(header));
  if (first == 0 && !source_->failed()) {  // the end: every batch given back
    ended_ = true;
    auto end = std::make_unique<DocBatch>();
    end->shard = shard_;
    end->sequence = batches_;
    end->end_of_shard = true;
    return end;
  }
  if (source_->failed() || !read_exactly(at + first, sizeof(header) - first)) {
    return damaged(source_->failed() ? source_->error().message : "cut short");
  }
  std::string bytes(header[0] < (uint64_t{1} << 40) ? header[0] : 0, '\0');
  if (bytes.size() != header[0] || !read_exactly(bytes.data(), bytes.size())) {
    return damaged("cut short");
  }
  if (hash64(bytes) != header[1]) return damaged("checksum");
  auto batch = DocBatch::deserialize(bytes);
  if (!batch.is_ok()) return damaged(batch.status().message());
  if ((*batch)->shard != shard_) return damaged("a batch of another shard");
  if ((*batch)->sequence != batches_) return damaged("a batch out of order");
  ++batches_;
  return std::move(batch).value();
}

}  // namespace winnow
