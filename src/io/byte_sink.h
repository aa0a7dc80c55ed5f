#pragma once
// ByteSink: compresses a byte stream into an AtomicFile. The compressed bytes depend only on
// the bytes written, never on how they were split into write() calls, so output is identical
// whatever the batch size. Compression runs on the calling thread, so it counts in the CPU
// budget of whoever writes (the pipeline's writers hold a CPU slot while they write; several
// shards are written at once, each by one thread). zstd output is one frame (zstd's streaming
// compressor cuts blocks at fixed offsets of the stream); gzip output is a series of members of
// fixed uncompressed size, as pigz writes, which any gzip reader reads as one stream.
#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"
#include "io/atomic_file.h"
#include "io/compression.h"

namespace winnow {

class ByteSink {
 public:
  // `level`: zstd 1..19, gzip 1..9; 0 = the codec's default (zstd 3, gzip 6); ignored for
  // plain output.
  static Result<std::unique_ptr<ByteSink>> create(const std::string& final_path,
                                                  Compression compression, int level);
  virtual ~ByteSink() = default;

  virtual Status write(std::string_view bytes) = 0;
  // Flushes the compressor and commits the file under its final name.
  virtual Status finish() = 0;
  uint64_t bytes_in() const { return bytes_in_; }

 protected:
  explicit ByteSink(AtomicFile file) : file_(std::move(file)) {}
  AtomicFile file_;
  uint64_t bytes_in_ = 0;
};

}  // namespace winnow
