#include "io/byte_sink.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <future>
#include <stdexcept>
#include <vector>

namespace winnow {

namespace {

constexpr size_t kOutChunk = 1 << 20;

class PlainSink final : public ByteSink {
 public:
  explicit PlainSink(AtomicFile file) : ByteSink(std::move(file)) { buffer_.reserve(kOutChunk); }
  Status write(std::string_view bytes) override {
    bytes_in_ += bytes.size();
    if (buffer_.size() + bytes.size() > kOutChunk) {
      WINNOW_RETURN_IF_ERROR(file_.write(buffer_));
      buffer_.clear();
      if (bytes.size() >= kOutChunk) return file_.write(bytes);
    }
    buffer_.append(bytes);
    return Status::ok();
  }
  Status finish() override {
    WINNOW_RETURN_IF_ERROR(file_.write(buffer_));
    return file_.commit();
  }

 private:
  std::string buffer_;
};

// Compresses one piece of the stream as a complete gzip member.
std::string gzip_member(std::string_view bytes, int level) {
  z_stream stream;
  std::memset(&stream, 0, sizeof(stream));
  // 15 + 16: a gzip wrapper; memLevel 8 is zlib's default.
  if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("zlib: deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, bytes.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib: deflate did not finish");
  return out;
}

// gzip is slow (about 20 MB/s per core at level 6), so the stream is cut into pieces of
// kGzipPiece uncompressed bytes, each compressed as its own gzip member on a worker thread and
// written in order: any gzip reader sees concatenated members as one stream (pigz does the
// same). The cuts fall at fixed offsets of the stream, so the bytes do not depend on how the
// stream was written or on the worker count.
class GzipSink final : public ByteSink {
 public:
  static constexpr size_t kGzipPiece = 4 << 20;

  GzipSink(AtomicFile file, int level, int threads)
      : ByteSink(std::move(file)),
        // Level 0 means "the default" here (as for zstd), not zlib's "store uncompressed".
        level_(level == 0 ? Z_DEFAULT_COMPRESSION : level),
        window_(2 * static_cast<size_t>(std::max(1, threads))) {}

  ~GzipSink() override {
    for (auto& piece : pieces_) piece.wait();  // never leave a worker writing into freed memory
  }

  Status write(std::string_view bytes) override {
    bytes_in_ += bytes.size();
    while (!bytes.empty()) {
      size_t take = std::min(bytes.size(), kGzipPiece - pending_.size());
      pending_.append(bytes.data(), take);
      bytes.remove_prefix(take);
      if (pending_.size() == kGzipPiece) WINNOW_RETURN_IF_ERROR(launch());
    }
    return Status::ok();
  }

  Status finish() override {
    // An empty stream still becomes one (empty) member: a valid .gz file.
    if (!pending_.empty() || (pieces_.empty() && bytes_in_ == 0)) WINNOW_RETURN_IF_ERROR(launch());
    while (!pieces_.empty()) WINNOW_RETURN_IF_ERROR(write_oldest());
    return file_.commit();
  }

 private:
  Status launch() {
    pieces_.push_back(std::async(std::launch::async,
                                 [input = std::move(pending_), level = level_] {
                                   return gzip_member(input, level);
                                 }));
    pending_ = std::string();
    pending_.reserve(kGzipPiece);
    if (pieces_.size() > window_) return write_oldest();
    return Status::ok();
  }

  Status write_oldest() {
    std::string member;
    try {
      member = pieces_.front().get();
    } catch (const std::exception& e) {
      pieces_.pop_front();
      return Status::errorf("gzip compression failed: {}", e.what());
    }
    pieces_.pop_front();
    return file_.write(member);
  }

  int level_;
  size_t window_;  // pieces compressing at once; bounds memory to about 2 x window x piece
  std::string pending_;
  std::deque<std::future<std::string>> pieces_;
};

class ZstdSink final : public ByteSink {
 public:
  ZstdSink(AtomicFile file, int level, int threads)
      : ByteSink(std::move(file)), cctx_(ZSTD_createCCtx()), out_(ZSTD_CStreamOutSize()) {
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_nbWorkers, threads < 1 ? 1 : threads);
  }
  ~ZstdSink() override { ZSTD_freeCCtx(cctx_); }

  Status write(std::string_view bytes) override {
    bytes_in_ += bytes.size();
    return pump(bytes, ZSTD_e_continue);
  }
  Status finish() override {
    WINNOW_RETURN_IF_ERROR(pump({}, ZSTD_e_end));
    return file_.commit();
  }

 private:
  Status pump(std::string_view bytes, ZSTD_EndDirective mode) {
    ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
    while (true) {
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      size_t remaining = ZSTD_compressStream2(cctx_, &out, &in, mode);
      if (ZSTD_isError(remaining)) {
        return Status::errorf("zstd compression failed: {}", ZSTD_getErrorName(remaining));
      }
      WINNOW_RETURN_IF_ERROR(file_.write(std::string_view(out_.data(), out.pos)));
      bool done = mode == ZSTD_e_end ? remaining == 0 : in.pos == in.size;
      if (done) return Status::ok();
    }
  }

  ZSTD_CCtx* cctx_;
  std::vector<char> out_;
};

}  // namespace

Result<std::unique_ptr<ByteSink>> ByteSink::create(const std::string& final_path,
                                                   Compression compression, int level,
                                                   int threads) {
  auto file = AtomicFile::create(final_path);
  if (!file.is_ok()) return file.status();
  switch (compression) {
    case Compression::kNone:
      return std::unique_ptr<ByteSink>(new PlainSink(std::move(file).value()));
    case Compression::kGzip:
      return std::unique_ptr<ByteSink>(new GzipSink(std::move(file).value(), level, threads));
    case Compression::kZstd:
      return std::unique_ptr<ByteSink>(new ZstdSink(std::move(file).value(), level, threads));
  }
  return Status::error("unknown compression");
}

}  // namespace winnow
