#include "io/byte_source.h"

#include <bzlib.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>

namespace winnow {

ByteSource::~ByteSource() {
  if (fd_ >= 0) ::close(fd_);
}

size_t ByteSource::fail(InputError kind, std::string message) {
  failed_ = true;
  error_ = {kind, fmt::format("{}: {}", path_, message)};
  return 0;
}

bool ByteSource::refill_input() {
  if (in_pos_ < in_end_) return true;
  if (failed_) return false;
  ssize_t n;
  do {
    n = ::read(fd_, in_.get(), kInputBufferBytes);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    fail(InputError::kUnreadableFile,
         fmt::format("read failed at byte {}: {}", file_offset_, std::strerror(errno)));
    return false;
  }
  in_pos_ = 0;
  in_end_ = static_cast<size_t>(n);
  file_offset_ += static_cast<uint64_t>(n);
  return n > 0;
}

namespace {

class PlainSource final : public ByteSource {
 public:
  size_t read(char* dst, size_t capacity) override {
    if (!refill_input()) return 0;
    size_t n = std::min(capacity, in_end_ - in_pos_);
    std::memcpy(dst, in_.get() + in_pos_, n);
    in_pos_ += n;
    return n;
  }
};

class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(bool resume_after_damage) : resume_after_damage_(resume_after_damage) {
    std::memset(&stream_, 0, sizeof(stream_));
    // 15 + 32: gzip or zlib header, detected automatically.
    inflateInit2(&stream_, 15 + 32);
  }
  ~GzipSource() override { inflateEnd(&stream_); }

  size_t read(char* dst, size_t capacity) override {
    if (failed_ || finished_ || broken_) return 0;
    stream_.next_out = reinterpret_cast<Bytef*>(dst);
    stream_.avail_out = static_cast<uInt>(std::min<size_t>(capacity, 1u << 30));
    const size_t wanted = stream_.avail_out;
    while (stream_.avail_out > 0) {
      if (in_pos_ == in_end_ && !refill_input()) {
        if (failed_) break;  // a read error: hand back what was inflated before it
        // inflate may still hold output (a match it had no room to copy, bits it had no room
        // to decode): take it before judging the end, so that nothing decoded is lost.
        if (member_open_ && drain()) continue;
        finished_ = true;
        // End of file: fine only between members.
        if (member_open_) {
          damaged(InputError::kTruncatedCompressed,
                  fmt::format("truncated gzip stream: the file ends inside a member (at "
                              "compressed byte {})",
                              file_offset_));
        }
        break;
      }
      stream_.next_in = reinterpret_cast<Bytef*>(in_.get() + in_pos_);
      stream_.avail_in = static_cast<uInt>(in_end_ - in_pos_);
      member_open_ = true;
      int rc = inflate(&stream_, Z_NO_FLUSH);
      in_pos_ = in_end_ - stream_.avail_in;
      if (rc == Z_STREAM_END) {
        // zlib has checked the member's CRC-32 and length: its bytes are good. Another member
        // may follow (Common Crawl writes one per record).
        verified_ = handed_out_ + (wanted - stream_.avail_out);
        member_open_ = false;
        inflateReset(&stream_);
        continue;
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        damaged(InputError::kCorruptCompressed,
                fmt::format("corrupt gzip data near compressed byte {}: {}",
                            compressed_bytes_read(), stream_.msg ? stream_.msg : "error"));
        if (resume_after_damage_) skip_to_next_member();
        break;
      }
    }
    // Bytes inflated before an error are handed out too; the error shows on the next read.
    size_t produced = wanted - stream_.avail_out;
    handed_out_ += produced;
    return produced;
  }

  uint64_t verified_bytes() const override { return verified_; }

  bool take_break(StreamError* error) override {
    if (!broken_) return false;
    broken_ = false;
    *error = break_error_;
    return true;
  }

 private:
  // Without resuming the stream fails; with it, the bytes inflated so far are handed back and
  // the error waits for take_break().
  void damaged(InputError kind, std::string message) {
    if (!resume_after_damage_) {
      fail(kind, std::move(message));
      return;
    }
    broken_ = true;
    break_error_ = {kind, fmt::format("{}: {}", path_, message)};
  }

  // After the end of the file inside a member: inflate with no more input, for the output it
  // still holds. True when it gave some.
  bool drain() {
    if (stream_.avail_out == 0) return false;
    uInt before = stream_.avail_out;
    stream_.next_in = nullptr;
    stream_.avail_in = 0;
    int rc = inflate(&stream_, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {  // the member's trailer was in already: a whole member
      verified_ = handed_out_ + (before - stream_.avail_out);
      member_open_ = false;
      inflateReset(&stream_);
    }
    return stream_.avail_out < before;
  }

  void skip_to_next_member() {
    inflateReset(&stream_);
    member_open_ = false;
    if (in_pos_ < in_end_) ++in_pos_;  // not the damaged member's own header again
    while (true) {
      for (; in_pos_ + 2 < in_end_; ++in_pos_) {
        if (static_cast<unsigned char>(in_[in_pos_]) == 0x1f &&
            static_cast<unsigned char>(in_[in_pos_ + 1]) == 0x8b && in_[in_pos_ + 2] == 0x08)
          return;
      }
      in_pos_ = in_end_;
      if (!refill_input()) {
        finished_ = true;
        return;
      }
    }
  }

  z_stream stream_;
  bool resume_after_damage_;
  bool member_open_ = false;
  bool finished_ = false;
  bool broken_ = false;
  StreamError break_error_;
  uint64_t handed_out_ = 0;  // uncompressed bytes returned by read() so far
  uint64_t verified_ = 0;    // of them, those in members that ended with a good CRC and length
};

class ZstdSource final : public ByteSource {
 public:
  ZstdSource() : stream_(ZSTD_createDStream()) {}
  ~ZstdSource() override { ZSTD_freeDStream(stream_); }

  size_t read(char* dst, size_t capacity) override {
    if (failed_ || finished_) return 0;
    ZSTD_outBuffer out{dst, capacity, 0};
    while (out.pos < out.size) {
      if (in_pos_ == in_end_) {
        if (!refill_input()) {
          if (failed_) break;  // a read error: hand back what was decoded before it
          if (frame_open_) {
            // The decoder may still hold decoded bytes it had no room for: take them first.
            size_t before = out.pos;
            ZSTD_inBuffer none{in_.get(), 0, 0};
            size_t rc = ZSTD_decompressStream(stream_, &out, &none);
            if (!ZSTD_isError(rc) && out.pos > before) {
              frame_open_ = rc != 0;
              continue;
            }
            fail(InputError::kTruncatedCompressed,
                 fmt::format("truncated zstd stream: the file ends inside a frame "
                             "(at compressed byte {})",
                             file_offset_));
            break;
          }
          finished_ = true;
          break;
        }
      }
      ZSTD_inBuffer in{in_.get(), in_end_, in_pos_};
      size_t rc = ZSTD_decompressStream(stream_, &out, &in);
      in_pos_ = in.pos;
      if (ZSTD_isError(rc)) {
        fail(InputError::kCorruptCompressed,
             fmt::format("corrupt zstd data near compressed byte {}: {}", compressed_bytes_read(),
                         ZSTD_getErrorName(rc)));
        break;
      }
      frame_open_ = rc != 0;  // 0: a frame just ended; another may follow
      if (out.pos > 0 && in_pos_ == in_end_ && rc != 0) {
        // Hand back what we have rather than block on more input.
        break;
      }
    }
    // Bytes decoded before an error are handed out too; the error shows on the next read.
    return out.pos;
  }

 private:
  ZSTD_DStream* stream_;
  bool frame_open_ = false;
  bool finished_ = false;
};

// bzip2 through libbz2. Concatenated streams read as one (Wikipedia's multistream dumps are
// one bzip2 stream per 100 pages). bzip2 checks each block's CRC as it ends and the stream's at
// its end; a file that ends inside a stream is truncated.
class Bzip2Source final : public ByteSource {
 public:
  Bzip2Source() { std::memset(&stream_, 0, sizeof(stream_)); }
  ~Bzip2Source() override {
    if (stream_open_) BZ2_bzDecompressEnd(&stream_);
  }

  size_t read(char* dst, size_t capacity) override {
    if (failed_ || finished_) return 0;
    stream_.next_out = dst;
    stream_.avail_out = static_cast<unsigned>(std::min<size_t>(capacity, 1u << 30));
    const size_t wanted = stream_.avail_out;
    while (stream_.avail_out > 0) {
      if (in_pos_ == in_end_ && !refill_input()) {
        if (failed_) break;  // a read error: hand back what was decoded before it
        if (stream_open_ && drain()) continue;
        finished_ = true;
        if (stream_open_) {
          fail(InputError::kTruncatedCompressed,
               fmt::format("truncated bzip2 stream: the file ends inside a stream (at "
                           "compressed byte {})",
                           file_offset_));
        }
        break;
      }
      if (!stream_open_) {
        if (BZ2_bzDecompressInit(&stream_, 0, 0) != BZ_OK) {
          fail(InputError::kCorruptCompressed, "cannot start the bzip2 decoder");
          break;
        }
        stream_open_ = true;
      }
      stream_.next_in = in_.get() + in_pos_;
      stream_.avail_in = static_cast<unsigned>(in_end_ - in_pos_);
      int rc = BZ2_bzDecompress(&stream_);
      in_pos_ = in_end_ - stream_.avail_in;
      if (rc == BZ_STREAM_END) {
        close_stream();  // another stream may follow
        continue;
      }
      if (rc != BZ_OK) {
        fail(InputError::kCorruptCompressed,
             fmt::format("corrupt bzip2 data near compressed byte {} (libbz2 error {})",
                         compressed_bytes_read(), rc));
        break;
      }
    }
    // Bytes decoded before an error are handed out too; the error shows on the next read.
    return wanted - stream_.avail_out;
  }

 private:
  // Ends a stream; the output window (next_out, avail_out) is kept for the next one.
  void close_stream() {
    char* next_out = stream_.next_out;
    unsigned avail_out = stream_.avail_out;
    BZ2_bzDecompressEnd(&stream_);
    std::memset(&stream_, 0, sizeof(stream_));
    stream_.next_out = next_out;
    stream_.avail_out = avail_out;
    stream_open_ = false;
  }

  // At the end of the file inside a stream: output the decoder still holds. True when some came.
  bool drain() {
    unsigned before = stream_.avail_out;
    stream_.next_in = nullptr;
    stream_.avail_in = 0;
    int rc = BZ2_bzDecompress(&stream_);
    bool gave = stream_.avail_out < before;
    if (rc == BZ_STREAM_END) {
      close_stream();
      return true;
    }
    return gave && rc == BZ_OK;
  }

  bz_stream stream_;
  bool stream_open_ = false;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> ByteSource::open(const std::string& path, StreamError* error,
                                             ByteSourceOptions options) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = {InputError::kUnreadableFile,
              fmt::format("{}: cannot open: {}", path, std::strerror(errno))};
    return nullptr;
  }
  auto in = std::make_unique_for_overwrite<char[]>(kInputBufferBytes);
  ssize_t n;
  do {
    n = ::read(fd, in.get(), kInputBufferBytes);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    *error = {InputError::kUnreadableFile,
              fmt::format("{}: cannot read: {}", path, std::strerror(errno))};
    ::close(fd);
    return nullptr;
  }
  Compression kind = detect_compression(std::string_view(in.get(), static_cast<size_t>(n)));
  std::unique_ptr<ByteSource> source;
  switch (kind) {
    case Compression::kNone:
      source = std::make_unique<PlainSource>();
      break;
    case Compression::kGzip:
      source = std::make_unique<GzipSource>(options.resume_after_damaged_gzip_member);
      break;
    case Compression::kZstd:
      source = std::make_unique<ZstdSource>();
      break;
    case Compression::kBzip2:
      source = std::make_unique<Bzip2Source>();
      break;
  }
  source->path_ = path;
  source->fd_ = fd;
  source->compression_ = kind;
  source->in_ = std::move(in);
  source->in_end_ = static_cast<size_t>(n);
  source->file_offset_ = static_cast<uint64_t>(n);
  return source;
}

}  // namespace winnow
