#include "pipeline/progress_line.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace winnow {

ProgressLine::ProgressLine(uint64_t total_compressed_bytes, std::function<ProgressSample()> sample)
    : total_(total_compressed_bytes), sample_(std::move(sample)) {}

ProgressLine::~ProgressLine() { stop(); }

bool ProgressLine::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

void ProgressLine::start() {
  thread_ = std::thread([this] { loop(); });
}

void ProgressLine::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
}

void ProgressLine::loop() {
  auto begin = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [&] { return stop_; })) {
    ProgressSample s = sample_();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    double mb = s.input_bytes / 1e6;
    double rate = seconds > 0 ? mb / seconds : 0;
    std::string eta = "--";
    if (total_ > 0 && s.compressed_bytes > 0 && s.compressed_bytes <= total_) {
      double remaining = seconds * double(total_ - s.compressed_bytes) / double(s.compressed_bytes);
      eta = fmt::format("{}:{:02}", int(remaining) / 60, int(remaining) % 60);
    }
    std::string line = fmt::format("\r\033[K[winnow] {} docs  {:.1f} MB  {:.1f} MB/s  ETA {}",
                                   s.documents, mb, rate, eta);
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
  }
}

}  // namespace winnow
