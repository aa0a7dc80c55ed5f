#pragma once
// BufferedInput: a ByteSource read through a buffer as lines (capped in length), counted reads
// and skips, with the uncompressed offset of the next byte (what WARC errors name). A damaged
// gzip member (ByteSource's resume_after_damaged_gzip_member) stops it as if at the end until
// resume(), so the reader can report the damage and go on with the next member. The reader can
// look ahead without consuming (looking_at), ask whether what it read came from gzip members
// already checked (verified_through), and give back bytes it read too far (unread).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "io/byte_source.h"

namespace winnow {

class BufferedInput {
 public:
  enum class Line { kOk, kTooLong, kEof };

  explicit BufferedInput(ByteSource& source, size_t buffer_bytes = kDefaultBufferBytes);

  // A damaged gzip member stopped the stream (reads return nothing until resume()).
  bool broken() const { return broken_; }
  const StreamError& break_error() const { return break_error_; }
  void resume() { broken_ = false; }

  uint64_t offset() const { return offset_; }
  // Bytes taken from the source so far (read or still buffered).
  uint64_t total() const { return offset_ + (end_ - pos_); }

  // Reads one line without its "\n" (a trailing "\r" is kept). A line longer than `max` is
  // consumed to its end and reported as kTooLong with its first `max` bytes. kEof: the
  // stream ended; `line` holds what was read (possibly nothing).
  Line read_line(std::string& line, size_t max);
  // Appends up to `n` bytes to `out`; returns how many were appended (fewer at the end).
  size_t read(std::string& out, size_t n);
  // Drops up to `n` bytes without copying them; returns how many were dropped.
  uint64_t skip(uint64_t n);
  // The next byte, or -1 at the end.
  int peek() {
    if (!fill()) return -1;
    return static_cast<unsigned char>(buffer_[pos_]);
  }
  // Drops `n` bytes that peek() or the buffer already holds.
  void consume(size_t n) {
    pos_ += n;
    offset_ += n;
  }

  enum class Ahead { kYes, kNo, kEnd };
  // Whether the next bytes are `prefix` (at most a few KiB), consuming nothing: kEnd when the
  // stream ends or breaks before it could tell.
  Ahead looking_at(std::string_view prefix);

  // True when every byte before uncompressed offset `end` (at most what was read) came from a
  // gzip member whose CRC-32 and length have been checked (always true for other streams).
  // When nothing more is buffered the source is read on, so that a member ending at `end`
  // has its trailer checked; a member that goes on past the buffered bytes (a WARC written as
  // one gzip stream) is not waited for: false, and broken() stays false.
  bool verified_through(uint64_t end);

  // Gives back `bytes`, which must be the last bytes consumed: they are read again next,
  // and offset() moves back by their size.
  void unread(std::string_view bytes);

  static constexpr size_t kDefaultBufferBytes = 1 << 20;

 private:
  // True when a byte is buffered, reading the source when none is.
  bool fill() { return pos_ < end_ || refill(); }
  bool refill();
  // Reads more from the source after the bytes still buffered; false at the end or a break.
  bool read_more();

  ByteSource& source_;
  size_t buffer_bytes_;
  std::unique_ptr<char[]> buffer_;
  size_t pos_ = 0;
  size_t end_ = 0;
  uint64_t offset_ = 0;
  bool eof_ = false;
  bool broken_ = false;
  StreamError break_error_;
};

}  // namespace winnow
