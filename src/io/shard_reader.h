#pragma once
// ShardReader: cuts one input file into batches of raw lines (not yet parsed), so the costly
// parse can run on several workers while one thread reads. Lines are never split across
// batches; a line over max_line_bytes is reported and skipped without being held in memory.
// The last batch of a shard is empty and marked end_of_shard.
#include <cstdint>
#include <memory>
#include <string>

#include "core/doc_batch.h"
#include "io/byte_source.h"
#include "io/shard_batches.h"

namespace winnow {

struct ReaderOptions {
  size_t batch_lines = 1024;
  size_t batch_bytes = 8 << 20;
  size_t max_line_bytes = 32 << 20;
};

class ShardReader {
 public:
  ShardReader(std::string path, uint32_t shard_index, ReaderOptions options);

  // The next batch; null after the end_of_shard batch.
  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const { return source_ ? source_->compressed_bytes_read() : 0; }

 private:
  void add_error(DocBatch& batch, InputError kind, std::string message, std::string_view excerpt);

  std::string path_;
  uint32_t shard_;
  ReaderOptions options_;
  ShardBatches batches_{shard_};
  std::unique_ptr<ByteSource> source_;
  bool opened_ = false;
  bool finished_ = false;  // the stream has ended (or failed)
  bool discarding_ = false;  // inside an over-long line, dropping bytes up to its newline
  std::string carry_;        // the partial line left after the previous batch
  uint64_t next_line_ = 1;
  uint64_t stream_offset_ = 0;  // uncompressed offset of carry_'s first byte
  uint64_t total_bytes_ = 0;
};

}  // namespace winnow
