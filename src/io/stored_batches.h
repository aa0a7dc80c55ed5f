#pragma once
// Stored batches: one shard's batches, as a pass's stages left them, in a work file that a later
// pass reads instead of the input (pipeline materialisation: the stages before a dedup step run
// once, not once per pass). A zstd stream (level 1) of records — u64 length, u64 XXH3 of the
// bytes, a DocBatch::serialize()d batch — in sequence order; the reader checks each record,
// gives the batches back and then the shard's end marker. Damage (a failed checksum, a cut
// file, a batch out of order) is an error naming the file: the run fails rather than go on
// with wrong data.
//
// Why in order: the pass reading the file keeps a bounded number of batches in flight, and its
// writer writes each shard's batches in sequence order. Read out of order, batches after a
// late one would fill every slot while the writer waits for it, and it could never be read.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/doc_batch.h"
#include "io/byte_sink.h"
#include "io/byte_source.h"

namespace winnow {

class StoredBatchWriter {
 public:
  static Result<std::unique_ptr<StoredBatchWriter>> create(const std::string& path);
  // Thread-safe: workers store batches of the same shard in any order; they are written in
  // sequence order (0, 1, 2...), one arriving early held until those before it have come.
  // The pass that stores holds few batches in flight, so few wait here.
  Status store(const DocBatch& batch);
  // The file under its final name; an error if a batch before one stored never came.
  Status commit();

 private:
  explicit StoredBatchWriter(std::unique_ptr<ByteSink> sink) : sink_(std::move(sink)) {}
  Status write_record(const std::string& bytes);

  std::mutex mutex_;
  std::unique_ptr<ByteSink> sink_;
  uint64_t next_sequence_ = 0;
  std::map<uint64_t, std::string> early_;  // serialized batches waiting for those before them
};

class StoredBatchReader {
 public:
  StoredBatchReader(std::string path, uint32_t shard);
  // The next batch; then the end marker (its sequence the number of batches); then null. On a
  // damaged file null, and failure() says what and where: the run fails with it.
  std::unique_ptr<DocBatch> next();
  const std::string& failure() const { return failure_; }
  uint64_t compressed_bytes_read() const { return source_ ? source_->compressed_bytes_read() : 0; }

 private:
  std::unique_ptr<DocBatch> damaged(const std::string& what);
  std::string failure_;
  bool read_exactly(char* out, size_t n);

  std::string path_;
  uint32_t shard_;
  std::unique_ptr<ByteSource> source_;
  bool opened_ = false;
  bool ended_ = false;
  uint64_t batches_ = 0;
};

}  // namespace winnow
