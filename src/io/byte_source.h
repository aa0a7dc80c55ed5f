#pragma once
// ByteSource: the uncompressed bytes of one input file, whatever its compression (detected from
// magic bytes: plain, gzip, zstd, bzip2). Concatenated gzip members, zstd frames and bzip2
// streams read as one stream. A corrupt or
// truncated stream stops with an error naming the file and the compressed byte offset, unless
// the caller asked to resume after a damaged gzip member (WARC files: one member per record).
// Whatever the decoder made before the damage is handed out first (a truncated file keeps
// every record that decompressed whole), and verified_bytes() says how much of it lies in
// gzip members whose CRC-32 and length were checked.
#include <cstdint>
#include <memory>
#include <string>

#include "core/input_error.h"
#include "io/compression.h"

namespace winnow {

struct StreamError {
  InputError kind = InputError::kUnreadableFile;
  std::string message;
};

struct ByteSourceOptions {
  // gzip only. A damaged member does not end the stream: read() hands back what was inflated
  // before the damage and returns 0, take_break() then reports the error (naming the
  // compressed offset), and the next read() goes on at the next gzip member header. A header
  // split across two reads of the file is missed (the next one is found instead).
  bool resume_after_damaged_gzip_member = false;
};

class ByteSource {
 public:
  // Opens `path`. Returns null and fills `error` when the file cannot be opened or read.
  static std::unique_ptr<ByteSource> open(const std::string& path, StreamError* error,
                                          ByteSourceOptions options = {});
  virtual ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // Fills up to `capacity` bytes; returns the count, 0 at the end of the stream or on error
  // (then failed() is true and error() says why). A read that meets an error returns the
  // bytes decoded before it (failed() may already be true then); the next returns 0.
  virtual size_t read(char* dst, size_t capacity) = 0;

  // How many of the bytes read so far are known good: for gzip, those of members that ended
  // with a matching CRC-32 and length (zlib checks them only at a member's end, after its
  // bytes were handed out); other streams have no per-member check and report every byte.
  virtual uint64_t verified_bytes() const { return UINT64_MAX; }

  // After read() returned 0: true (once) when that was a recoverable break, not the end
  // (only with resume_after_damaged_gzip_member); `error` says what was damaged.
  virtual bool take_break(StreamError* /*error*/) { return false; }

  bool failed() const { return failed_; }
  const StreamError& error() const { return error_; }
  Compression compression() const { return compression_; }
  uint64_t compressed_bytes_read() const { return file_offset_ - (in_end_ - in_pos_); }
  const std::string& path() const { return path_; }

 protected:
  ByteSource() = default;
  size_t fail(InputError kind, std::string message);
  // Refills the compressed input buffer when it is empty; false at end of file or on error.
  bool refill_input();

  static constexpr size_t kInputBufferBytes = 1 << 20;
  std::string path_;
  int fd_ = -1;
  Compression compression_ = Compression::kNone;
  std::unique_ptr<char[]> in_;
  size_t in_pos_ = 0;
  size_t in_end_ = 0;
  uint64_t file_offset_ = 0;  // bytes read from the file so far
  bool failed_ = false;
  StreamError error_;
};

}  // namespace winnow
