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
  pos_ = end_ = 0;
  return read_more();
}

bool BufferedInput::read_more() {
  if (eof_ || broken_) return false;
  if (pos_ > 0) {  // keep the unread bytes at the front
    std::memmove(buffer_.get(), buffer_.get() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
  }
  if (end_ == buffer_bytes_) {  // full of unread bytes (a tiny buffer looking ahead): grow it
    auto bigger = std::make_unique_for_overwrite<char[]>(buffer_bytes_ * 2);
    std::memcpy(bigger.get(), buffer_.get(), end_);
    buffer_ = std::move(bigger);
    buffer_bytes_ *= 2;
  }
  size_t n = source_.read(buffer_.get() + end_, buffer_bytes_ - end_);
  end_ += n;
  if (n == 0) {
    if (source_.take_break(&break_error_)) {
      broken_ = true;
    } else {
      eof_ = true;
    }
  }
  return n > 0;
}

BufferedInput::Ahead BufferedInput::looking_at(std::string_view prefix) {
  while (true) {
    size_t have = std::min(prefix.size(), end_ - pos_);
    if (std::memcmp(buffer_.get() + pos_, prefix.data(), have) != 0) return Ahead::kNo;
    if (have == prefix.size()) return Ahead::kYes;
    if (!read_more()) return Ahead::kEnd;
  }
}

bool BufferedInput::verified_through(uint64_t end) {
  while (source_.verified_bytes() < end) {
    // Bytes buffered past `end` came with the member still open: it goes on past `end`.
    if (pos_ < end_ || !refill()) return false;
  }
  return true;
}

void BufferedInput::unread(std::string_view bytes) {
  offset_ -= bytes.size();
  if (bytes.size() <= pos_) {  // still in the buffer, just before the read position
    pos_ -= bytes.size();
    return;
  }
  size_t rest = end_ - pos_;
  size_t size = std::max(buffer_bytes_, bytes.size() + rest);
  auto buffer = std::make_unique_for_overwrite<char[]>(size);
  std::memcpy(buffer.get(), bytes.data(), bytes.size());
  std::memcpy(buffer.get() + bytes.size(), buffer_.get() + pos_, rest);
  buffer_ = std::move(buffer);
  buffer_bytes_ = size;
  pos_ = 0;
  end_ = bytes.size() + rest;
}

}  // namespace winnow
