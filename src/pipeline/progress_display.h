#pragma once
// ProgressDisplay: what a running pipeline shows on stderr. On a terminal, a live block
// redrawn in place: overall progress (documents, MB read, MB/s, ETA from the input size) and
// one line per step (workers, busy %, input queue fill, throughput). When stderr is not a
// terminal (a log file, a batch job), a plain line every `log_every` seconds instead.
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "pipeline/run_metrics.h"

namespace winnow {

class ProgressDisplay {
 public:
  ProgressDisplay(uint64_t total_compressed_bytes, std::vector<std::string> step_names,
                  bool terminal, double log_every_seconds = 10);
  // Which pass this is ("identify exact_dedup", "write"): named in every line when set.
  void set_pass(std::string pass) { pass_ = std::move(pass); }
  // Hands every sample to `observer` (the pass's name, the sample, the input bytes in all)
  // instead of drawing on stderr: the Python package draws its own bar.
  using Observer = std::function<void(const std::string&, const RunSample&, uint64_t)>;
  void set_observer(Observer observer) { observer_ = std::move(observer); }
  // Called from the monitor's thread with the latest totals and the last interval's steps.
  void update(const RunSample& sample);
  void stop();  // clears the live block

  static bool stderr_is_terminal();
  // The text shown for `sample` (the live block, or the plain log line).
  std::string render(const RunSample& sample, bool terminal) const;

 private:
  uint64_t total_;
  std::vector<std::string> names_;
  bool terminal_;
  double log_every_;
  std::string pass_;
  Observer observer_;
  std::mutex mutex_;
  int lines_shown_ = 0;
  double last_log_ = 0;
  bool stopped_ = false;
};

}  // namespace winnow
