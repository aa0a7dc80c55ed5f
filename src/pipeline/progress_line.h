#pragma once
// ProgressLine: a live one-line progress display on stderr (documents, MB read, MB/s, ETA from
// the input size), refreshed twice a second while a run goes on. Only for terminals: when
// stderr is not a terminal, it writes nothing.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace winnow {

struct ProgressSample {
  uint64_t documents = 0;         // written (kept, dropped or errors) so far
  uint64_t input_bytes = 0;       // uncompressed bytes read
  uint64_t compressed_bytes = 0;  // bytes of input files consumed
};

class ProgressLine {
 public:
  ProgressLine(uint64_t total_compressed_bytes, std::function<ProgressSample()> sample);
  ~ProgressLine();
  void start();
  void stop();  // clears the line

  static bool stderr_is_terminal();

 private:
  void loop();
  uint64_t total_;
  std::function<ProgressSample()> sample_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
};

}  // namespace winnow
