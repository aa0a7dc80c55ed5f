#include "io/byte_sink.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
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

// The stream is cut into pieces of kGzipPiece uncompressed bytes, each a complete gzip member:
// any gzip reader sees concatenated members as one stream (pigz writes the same), the cuts fall
// at fixed offsets of the stream (the bytes do not depend on how the stream was written), and a
// damaged file loses at most the members that hold the damage.
class GzipSink final : public ByteSink {
 public:
  static constexpr size_t kGzipPiece = 4 << 20;

  GzipSink(AtomicFile file, int level)
      // Level 0 means "the default" here (as for zstd), not zlib's "store uncompressed".
      : ByteSink(std::move(file)), level_(level == 0 ? Z_DEFAULT_COMPRESSION : level) {
    pending_.reserve(kGzipPiece);
  }

  Status write(std::string_view bytes) override {
    bytes_in_ += bytes.size();
    while (!bytes.empty()) {
      size_t take = std::min(bytes.size(), kGzipPiece - pending_.size());
      pending_.append(bytes.data(), take);
      bytes.remove_prefix(take);
      if (pending_.size() == kGzipPiece) WINNOW_RETURN_IF_ERROR(flush_piece());
    }
    return Status::ok();
  }

  Status finish() override {
    // An empty stream still becomes one (empty) member: a valid .gz file.
    if (!pending_.empty() || !wrote_member_) WINNOW_RETURN_IF_ERROR(flush_piece());
    return file_.commit();
  }

 private:
  Status flush_piece() {
    std::string member;
    try {
      member = gzip_member(pending_, level_);
    } catch (const std::exception& e) {
      return Status::errorf("gzip compression failed: {}", e.what());
    }
    pending_.clear();
    wrote_member_ = true;
    return file_.write(member);
  }

  int level_;
  bool wrote_member_ = false;
  std::string pending_;
};

class ZstdSink final : public ByteSink {
 public:
  ZstdSink(AtomicFile file, int level)
      : ByteSink(std::move(file)), cctx_(ZSTD_createCCtx()), out_(ZSTD_CStreamOutSize()) {
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 1);
    // Single-threaded streaming (no zstd worker threads outside the CPU budget): blocks are cut
    // at fixed offsets of the stream, so the bytes do not depend on the write() calls.
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_nbWorkers, 0);
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
                                                   Compression compression, int level) {
  auto file = AtomicFile::create(final_path);
  if (!file.is_ok()) return file.status();
  switch (compression) {
    case Compression::kNone:
      return std::unique_ptr<ByteSink>(new PlainSink(std::move(file).value()));
    case Compression::kGzip:
      return std::unique_ptr<ByteSink>(new GzipSink(std::move(file).value(), level));
    case Compression::kZstd:
      return std::unique_ptr<ByteSink>(new ZstdSink(std::move(file).value(), level));
  }
  return Status::error("unknown compression");
}

}  // namespace winnow
