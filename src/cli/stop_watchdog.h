#pragma once
// StopWatchdog: a stop request (Ctrl-C, SIGTERM) ends the run within a few seconds whatever a
// stage is doing. The run stops cleanly on its own when its workers finish the batches in hand;
// a worker inside a library call that does not return (a parser on a pathological page) would
// hold it up for as long as that call takes. So once a stop was requested, the watchdog gives
// the run `grace` to end; if it has not, it removes the temporary files this process left in the
// output folder (every file is written under a temporary name and renamed when complete, and a
// shard's completion marker comes last, so finished shards are complete and the rest leaves no
// trace), says so, and ends the process with exit code 130. A rerun resumes.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace winnow {

class StopWatchdog {
 public:
  StopWatchdog(const std::atomic<bool>& stop_requested, std::string output_dir,
               std::chrono::milliseconds grace);
  ~StopWatchdog();  // the run has ended (returned): the watchdog stands down

 private:
  void watch();
  void end_the_process();

  const std::atomic<bool>& stop_requested_;
  std::string output_dir_;
  std::chrono::milliseconds grace_;
  std::mutex mutex_;
  std::condition_variable ended_;
  bool run_ended_ = false;
  std::thread thread_;
};

}  // namespace winnow
