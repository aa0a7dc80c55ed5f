#pragma once
// ByteSink: compresses a byte stream into an AtomicFile. The compressed bytes depend only on
// the bytes written, never on how they were split into write() calls, so output is identical
// whatever the batch size. zstd always runs in its multi-threaded mode (at least one worker)
// because zstd's output is the same for any worker count >= 1, but differs from 0 workers.
// gzip output is a series of members of fixed uncompressed size compressed in parallel.
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
  // `threads`: compression threads (>= 1): zstd's workers, or gzip pieces compressed at once.
  // Neither changes the output bytes.
  static Result<std::unique_ptr<ByteSink>> create(const std::string& final_path,
                                                  Compression compression, int level, int threads);
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
