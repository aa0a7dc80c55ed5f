#pragma once
// ByteSink: compresses a byte stream into an AtomicFile. The compressed bytes depend only on
// the bytes written, never on how they were split into write() calls nor on how many threads
// compressed them, so output is identical whatever the batch size or thread count. zstd output
// is one frame made of jobs of fixed uncompressed size (zstd's multi-threaded mode, always on:
// its bytes are the same for any worker count); gzip output is a series of members of fixed
// uncompressed size, as pigz writes, which any gzip reader reads as one stream.
//
// Compression counts in the CPU budget of whoever writes. The calling thread holds one CPU
// thread of it; a sink keeps up to four whole jobs waiting and compresses them together inside
// write() or finish(), with more threads only as many as the CpuAllowance gives (taken without
// waiting, given back before the call returns, which is once those jobs are done). So the
// pipeline's writer uses the threads other workers leave free (when writing is the bottleneck,
// they wait for it), never more than the budget.
#include <memory>
#include <string>
#include <string_view>

#include "core/cpu_allowance.h"
#include "core/status.h"
#include "io/atomic_file.h"
#include "io/compression.h"

namespace winnow {

// Extra threads a sink may compress with: at most `max_threads` in all (its caller's included),
// the others taken from `allowance` while free. No allowance: the caller's thread alone.
struct CompressionThreads {
  CpuAllowance* allowance = nullptr;
  int max_threads = 1;
};

class ByteSink {
 public:
  // `level`: zstd 1..19, gzip 1..9; 0 = the codec's default (zstd 3, gzip 6); ignored for
  // plain output.
  static Result<std::unique_ptr<ByteSink>> create(const std::string& final_path,
                                                  Compression compression, int level,
                                                  CompressionThreads threads = {});
  virtual ~ByteSink() = default;

  // May keep a few whole jobs buffered, to compress them at once.
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
