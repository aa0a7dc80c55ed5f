#include "io/byte_sink.h"

#include <zlib.h>
#include <zstd.h>

#include <cstring>
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

class GzipSink final : public ByteSink {
 public:
  GzipSink(AtomicFile file, int level) : ByteSink(std::move(file)), out_(kOutChunk) {
    std::memset(&stream_, 0, sizeof(stream_));
    // 15 + 16: a gzip wrapper; memLevel 8 is zlib's default. Level 0 means "the default"
    // here (as for zstd), not zlib's "store uncompressed".
    deflateInit2(&stream_, level == 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED, 15 + 16, 8,
                 Z_DEFAULT_STRATEGY);
  }
  ~GzipSink() override { deflateEnd(&stream_); }

  Status write(std::string_view bytes) override {
    bytes_in_ += bytes.size();
    return pump(bytes, Z_NO_FLUSH);
  }
  Status finish() override {
    WINNOW_RETURN_IF_ERROR(pump({}, Z_FINISH));
    return file_.commit();
  }

 private:
  Status pump(std::string_view bytes, int flush) {
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream_.avail_in = static_cast<uInt>(bytes.size());
    int rc;
    do {
      stream_.next_out = reinterpret_cast<Bytef*>(out_.data());
      stream_.avail_out = static_cast<uInt>(out_.size());
      rc = deflate(&stream_, flush);
      if (rc == Z_STREAM_ERROR) return Status::error("gzip compression failed");
      WINNOW_RETURN_IF_ERROR(
          file_.write(std::string_view(out_.data(), out_.size() - stream_.avail_out)));
    } while (stream_.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    return Status::ok();
  }

  z_stream stream_;
  std::vector<char> out_;
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
      return std::unique_ptr<ByteSink>(new GzipSink(std::move(file).value(), level));
    case Compression::kZstd:
      return std::unique_ptr<ByteSink>(new ZstdSink(std::move(file).value(), level, threads));
  }
  return Status::error("unknown compression");
}

}  // namespace winnow
