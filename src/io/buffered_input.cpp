#include "io/buffered_input.h"

#include <algorithm>
#include <cstring>

namespace winnow {

BufferedInput::BufferedInput(ByteSource& source, size_t buffer_bytes)
    : source_(source),
      buffer_bytes_(buffer_bytes),
      buffer_(std::make_unique_for_overwrite<char[]>(buffer_bytes)) {}

BufferedInput::Line BufferedInput::read_line(std::string& line, size_t max) {
  line.clear();
  bool too_long = false;
  while (true) {
    if (!fill()) return Line::kEof;
    const char* start = buffer_.get() + pos_;
    size_t available = end_ - pos_;
    const char* nl = static_cast<const char*>(std::memchr(start, '\n', available));
    size_t take = nl ? static_cast<size_t>(nl - start) : available;
    if (!too_long) {
      size_t room = max - line.size();
      line.append(start, std::min(take, room));
      if (take > room) too_long = true;
    }
    consume(take + (nl ? 1 : 0));
    if (nl) return too_long ? Line::kTooLong : Line::kOk;
  }
}

size_t BufferedInput::read(std::string& out, size_t n) {
  size_t done = 0;
  while (done < n && fill()) {
    size_t take = std::min(n - done, end_ - pos_);
    out.append(buffer_.get() + pos_, take);
    consume(take);
    done += take;
  }
  return done;
}

uint64_t BufferedInput::skip(uint64_t n) {
  uint64_t done = 0;
  while (done < n && fill()) {
    size_t take = static_cast<size_t>(std::min<uint64_t>(n - done, end_ - pos_));
    consume(take);
    done += take;
  }
  return done;
}

bool BufferedInput::refill() {
  if (eof_ || broken_) return false;
  size_t n = source_.read(buffer_.get(), buffer_bytes_);
  pos_ = 0;
  end_ = n;
  if (n == 0) {
    if (source_.take_break(&break_error_)) {
      broken_ = true;
    } else {
      eof_ = true;
    }
  }
  return n > 0;
}

}  // namespace winnow
