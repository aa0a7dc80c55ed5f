#include "io/byte_sink.h"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameProgression, ZSTD_c_jobSize
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "io/zstd_memory.h"

namespace winnow {

namespace {

constexpr size_t kOutChunk = 1 << 20;
// Whole jobs (gzip members, zstd jobs) a compressed sink keeps waiting before it compresses
// them together: the most threads one sink compresses with at once, and its memory (jobs of
// 4 MiB). With many shards open, their writers compress side by side anyway.
constexpr size_t kJobsWaiting = 4;

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
// at fixed offsets of the stream (the bytes do not depend on how the stream was written or how
// many threads compressed it), and a damaged file loses at most the members that hold the
// damage. A whole piece is compressed by a helper thread when the allowance has a thread free
// (the helper holds it while it works, and gives it back when no piece is left), else by the
// caller once kJobsWaiting pieces wait; members are written in order as they are done.
class GzipSink final : public ByteSink {
 public:
  static constexpr size_t kGzipPiece = 4 << 20;

  GzipSink(AtomicFile file, int level, CompressionThreads threads)
      // Level 0 means "the default" here (as for zstd), not zlib's "store uncompressed".
      : ByteSink(std::move(file)),
        level_(level == 0 ? Z_DEFAULT_COMPRESSION : level),
        threads_(threads) {
    current_.reserve(kGzipPiece);
  }

  ~GzipSink() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;  // helpers finish the piece in hand and leave
    }
    for (auto& helper : helpers_) helper.thread.join();
  }

  Status write(std::string_view bytes) override {
    bytes_in_ += bytes.size();
    while (!bytes.empty()) {
      size_t take = std::min(bytes.size(), kGzipPiece - current_.size());
      current_.append(bytes.data(), take);
      bytes.remove_prefix(take);
      if (current_.size() == kGzipPiece) WINNOW_RETURN_IF_ERROR(queue_piece());
    }
    return write_done(false);
  }

  Status finish() override {
    // An empty stream still becomes one (empty) member: a valid .gz file.
    if (!current_.empty() || members_written_ + pieces_.size() == 0) {
      WINNOW_RETURN_IF_ERROR(queue_piece());
    }
    while (compress_one_waiting()) {
    }
    WINNOW_RETURN_IF_ERROR(write_done(true));
    return file_.commit();
  }

 private:
  struct Piece {
    std::string input;
    std::string member;
    std::string failure;
    bool started = false;
    bool done = false;
  };

  Status queue_piece() {
    {
      std::lock_guard lock(mutex_);
      auto piece = std::make_shared<Piece>();
      piece->input = std::move(current_);
      pieces_.push_back(std::move(piece));
    }
    current_ = std::string();
    current_.reserve(kGzipPiece);
    start_helper();
    // Memory stays bounded: past kJobsWaiting pieces the caller compresses (or waits).
    while (pending() > kJobsWaiting) {
      if (!compress_one_waiting()) wait_for_oldest();
      WINNOW_RETURN_IF_ERROR(write_done(false));
    }
    return Status::ok();
  }

  // A helper on a thread the allowance has free, unless enough are at work.
  void start_helper() {
    if (!threads_.allowance) return;
    std::vector<std::thread> finished;
    {
      std::lock_guard lock(mutex_);
      // Helpers that have left are joined here (they cannot join themselves).
      std::erase_if(helpers_, [&](Helper& h) {
        if (!*h.left) return false;
        finished.push_back(std::move(h.thread));
        return true;
      });
      if (running_helpers_ + 1 < threads_.max_threads && has_waiting() &&
          threads_.allowance->try_take(1) == 1) {
        ++running_helpers_;
        auto left = std::make_shared<bool>(false);
        helpers_.push_back({std::thread([this, left] {
                              while (compress_one_waiting()) {
                              }
                              std::lock_guard done(mutex_);
                              --running_helpers_;
                              *left = true;
                              threads_.allowance->give_back(1);
                            }),
                            left});
      }
    }
    for (auto& helper : finished) helper.join();
  }

  // Compresses the oldest piece nobody has started; false when there is none.
  bool compress_one_waiting() {
    std::shared_ptr<Piece> piece;
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return false;
      for (auto& p : pieces_) {
        if (!p->started) {
          piece = p;
          piece->started = true;
          break;
        }
      }
    }
    if (!piece) return false;
    try {
      piece->member = gzip_member(piece->input, level_);
    } catch (const std::exception& e) {
      piece->failure = e.what();
    }
    {
      std::lock_guard lock(mutex_);
      piece->input = std::string();
      piece->done = true;
    }
    piece_done_.notify_all();
    return true;
  }

  void wait_for_oldest() {
    std::unique_lock lock(mutex_);
    piece_done_.wait(lock, [&] { return pieces_.empty() || pieces_.front()->done; });
  }

  // Writes the members done at the front, in order; with `all`, waits for every piece.
  Status write_done(bool all) {
    while (true) {
      std::shared_ptr<Piece> front;
      {
        std::unique_lock lock(mutex_);
        if (all) piece_done_.wait(lock, [&] { return pieces_.empty() || pieces_.front()->done; });
        if (pieces_.empty() || !pieces_.front()->done) return Status::ok();
        front = pieces_.front();
        pieces_.pop_front();
      }
      if (!front->failure.empty()) {
        return Status::errorf("gzip compression failed: {}", front->failure);
      }
      WINNOW_RETURN_IF_ERROR(file_.write(front->member));
      ++members_written_;
    }
  }

  size_t pending() {
    std::lock_guard lock(mutex_);
    return pieces_.size();
  }
  bool has_waiting() const {  // under mutex_
    for (const auto& p : pieces_) {
      if (!p->started) return true;
    }
    return false;
  }

  int level_;
  CompressionThreads threads_;
  std::string current_;  // the piece being filled
  uint64_t members_written_ = 0;
  std::mutex mutex_;  // guards pieces_, running_helpers_, stopping_
  std::condition_variable piece_done_;
  std::deque<std::shared_ptr<Piece>> pieces_;  // whole pieces not written yet, in order
  int running_helpers_ = 0;
  bool stopping_ = false;
  struct Helper {
    std::thread thread;
    std::shared_ptr<bool> left;  // set (under mutex_) as it leaves
  };
  std::vector<Helper> helpers_;  // joined once they have left, or when the sink goes
};

// One zstd frame in zstd's multi-threaded mode, whose jobs start at fixed offsets of the stream
// (kJobBytes apart) and whose bytes are the same for any worker count of at least one. zstd's
// workers start a job as soon as its bytes have been handed over, so bytes wait here until a
// thread of the budget is there to run the job: one the sink holds and no job uses, or one
// more the allowance has free (held until a later call sees fewer jobs running than threads
// held). Past kJobsWaiting whole jobs waiting, the caller runs one: hands it over and waits.
// So zstd's workers never run more jobs than the threads the sink and its caller hold.
//
// Copies: zstd copies what it is handed into its own job buffers, so a sink that can never take
// a thread (no allowance, or a budget of one) hands the caller's bytes straight over and waits
// at each job's end. Otherwise bytes wait in job-sized buffers that are reused, never moved
// (a job handed over frees its buffer for the next), and compressed bytes leave in writes of
// up to kOutChunk.
class ZstdSink final : public ByteSink {
 public:
  static constexpr size_t kJobBytes = 4 << 20;

  ZstdSink(AtomicFile file, int level, CompressionThreads threads)
      : ByteSink(std::move(file)),
        cctx_(ZSTD_createCCtx_advanced(ZstdMemory::custom_mem())),
        out_(std::max(kOutChunk, ZSTD_CStreamOutSize())),
        threads_(threads),
        direct_(!threads.allowance || threads.max_threads <= 1) {
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_nbWorkers, std::max(1, threads.max_threads));
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_jobSize, static_cast<int>(kJobBytes));
  }
  ~ZstdSink() override {
    ZSTD_freeCCtx(cctx_);  // waits for the jobs still running
    give_back(held_);
  }

  Status write(std::string_view bytes) override {
    bytes_in_ += bytes.size();
    if (direct_) return write_direct(bytes);
    while (!bytes.empty()) {
      if (filling_.capacity() < kJobBytes) filling_ = spare_buffer();
      size_t take = std::min(bytes.size(), kJobBytes - filling_.size());
      filling_.append(bytes.data(), take);
      bytes.remove_prefix(take);
      if (filling_.size() == kJobBytes) {
        jobs_.push_back(std::move(filling_));
        filling_ = std::string();
      }
    }
    return hand_over(false);
  }

  Status finish() override {
    // zstd's first call opens the frame: one that ends it at once would write the (empty)
    // content size into the header, a different frame from a stream that was written to.
    WINNOW_RETURN_IF_ERROR(direct_ ? pump({}, ZSTD_e_continue) : hand_over(true));
    WINNOW_RETURN_IF_ERROR(pump(filling_, ZSTD_e_end));  // the caller waits for the last job
    filling_.clear();
    WINNOW_RETURN_IF_ERROR(write_out());
    give_back(held_);
    return file_.commit();
  }

 private:
  unsigned running_jobs() const { return ZSTD_getFrameProgression(cctx_).nbActiveWorkers; }

  void give_back(int n) {
    if (threads_.allowance && n > 0) threads_.allowance->give_back(n);
    held_ -= n;
  }

  // A thread of the budget for one more job: a held one no job uses, or one more taken.
  bool thread_for_a_job(unsigned running) {
    if (held_ > static_cast<int>(running)) return true;
    if (!threads_.allowance || held_ + 1 >= threads_.max_threads) return false;
    if (threads_.allowance->try_take(1) != 1) return false;
    ++held_;
    return true;
  }

  // No thread to take, ever: each job is handed over as its bytes come, and run while the
  // caller waits (zstd starts it once its last byte is in). direct_in_job_ counts the bytes of
  // the job being handed over.
  Status write_direct(std::string_view bytes) {
    while (!bytes.empty()) {
      size_t take = std::min(bytes.size(), kJobBytes - direct_in_job_);
      WINNOW_RETURN_IF_ERROR(pump(bytes.substr(0, take), ZSTD_e_continue));
      bytes.remove_prefix(take);
      direct_in_job_ += take;
      if (direct_in_job_ == kJobBytes) {
        direct_in_job_ = 0;
        WINNOW_RETURN_IF_ERROR(wait_for_jobs());
      }
    }
    return Status::ok();
  }

  // An empty buffer of kJobBytes capacity: one a handed-over job left, else a new one.
  std::string spare_buffer() {
    if (spare_.empty()) {
      std::string fresh;
      fresh.reserve(kJobBytes);
      return fresh;
    }
    std::string buffer = std::move(spare_.back());
    spare_.pop_back();
    return buffer;
  }

  // Hands whole jobs to zstd while threads are there to run them; with `all`, every whole job
  // (the caller running those no other thread is there for).
  Status hand_over(bool all) {
    WINNOW_RETURN_IF_ERROR(pump({}, ZSTD_e_continue));  // output of finished jobs
    unsigned running = running_jobs();
    if (held_ > static_cast<int>(running)) give_back(held_ - static_cast<int>(running));
    Status status = Status::ok();
    while (status.is_ok() && !jobs_.empty()) {
      bool threaded = thread_for_a_job(running);
      if (!threaded && !all && jobs_.size() < kJobsWaiting) break;
      status = pump(jobs_.front(), ZSTD_e_continue);
      jobs_.front().clear();
      if (spare_.size() < kJobsWaiting) spare_.push_back(std::move(jobs_.front()));
      jobs_.pop_front();
      ++running;
      if (!threaded && status.is_ok()) {
        status = wait_for_jobs();  // the caller's own thread ran it
        running = 0;
        give_back(held_);
      }
    }
    return status;
  }

  // Hands `bytes` to zstd; what it gives back gathers in out_, written when full.
  Status pump(std::string_view bytes, ZSTD_EndDirective mode) {
    ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
    while (true) {
      ZSTD_outBuffer out{out_.data(), out_.size(), out_used_};
      size_t remaining = ZSTD_compressStream2(cctx_, &out, &in, mode);
      if (ZSTD_isError(remaining)) {
        return Status::errorf("zstd compression failed: {}", ZSTD_getErrorName(remaining));
      }
      out_used_ = out.pos;
      if (out_.size() - out_used_ < ZSTD_CStreamOutSize()) WINNOW_RETURN_IF_ERROR(write_out());
      bool done = mode == ZSTD_e_end ? remaining == 0 : in.pos == in.size;
      if (done) return Status::ok();
    }
  }

  Status write_out() {
    Status status = file_.write(std::string_view(out_.data(), out_used_));
    out_used_ = 0;
    return status;
  }

  // Until no zstd worker is compressing. zstd has no call that waits for its jobs without
  // ending them early (which would move the job boundaries and so the bytes), hence the short
  // sleeps; a job takes tens of milliseconds. Each look also collects what finished jobs
  // produced and lets zstd post a job it could not post before (its table was full of jobs
  // whose output had not been collected).
  Status wait_for_jobs() {
    while (true) {
      WINNOW_RETURN_IF_ERROR(pump({}, ZSTD_e_continue));
      if (running_jobs() == 0) return Status::ok();
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }

  ZSTD_CCtx* cctx_;
  std::vector<char> out_;
  size_t out_used_ = 0;  // compressed bytes in out_ not written yet
  CompressionThreads threads_;
  const bool direct_;    // no thread can ever be taken: bytes go straight to zstd
  size_t direct_in_job_ = 0;
  int held_ = 0;  // threads taken from the allowance for zstd's jobs
  std::string filling_;             // the job being filled, not handed to zstd yet
  std::deque<std::string> jobs_;    // whole jobs not handed to zstd yet, in order
  std::vector<std::string> spare_;  // buffers of jobs handed over, for the next ones
};

}  // namespace

Result<std::unique_ptr<ByteSink>> ByteSink::create(const std::string& final_path,
                                                   Compression compression, int level,
                                                   CompressionThreads threads) {
  auto file = AtomicFile::create(final_path);
  if (!file.is_ok()) return file.status();
  switch (compression) {
    case Compression::kNone:
      return std::unique_ptr<ByteSink>(new PlainSink(std::move(file).value()));
    case Compression::kGzip:
      return std::unique_ptr<ByteSink>(new GzipSink(std::move(file).value(), level, threads));
    case Compression::kZstd:
      return std::unique_ptr<ByteSink>(new ZstdSink(std::move(file).value(), level, threads));
    case Compression::kBzip2:
      break;  // read only (Wikipedia dumps): no output format names it
  }
  return Status::error("unknown compression");
}

}  // namespace winnow
