#include "cli/stop_watchdog.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "io/atomic_file.h"
#include "io/output_names.h"

namespace winnow {

namespace fs = std::filesystem;

StopWatchdog::StopWatchdog(const std::atomic<bool>& stop_requested, std::string output_dir,
                           std::chrono::milliseconds grace)
    : stop_requested_(stop_requested), output_dir_(std::move(output_dir)), grace_(grace) {
  thread_ = std::thread([this] { watch(); });
}

StopWatchdog::~StopWatchdog() {
  {
    std::lock_guard lock(mutex_);
    run_ended_ = true;
  }
  ended_.notify_all();
  thread_.join();
}

void StopWatchdog::watch() {
  std::unique_lock lock(mutex_);
  // A signal handler cannot notify a condition variable: look every 50 ms.
  while (!run_ended_ && !stop_requested_.load()) {
    ended_.wait_for(lock, std::chrono::milliseconds(50));
  }
  if (run_ended_) return;
  if (ended_.wait_for(lock, grace_, [this] { return run_ended_; })) return;
  end_the_process();
}

void StopWatchdog::end_the_process() {
  std::fprintf(stderr,
               "winnow: stopped; a step was still inside a document after %.0f s, so the run "
               "ends without it: finished shards are complete, the others leave nothing behind; "
               "run the same command again to resume\n",
               grace_.count() / 1e3);
  // This process's temporary files (".NAME.tmp-PID"), wherever they are under the output
  // folder, and what its passes stored for each other.
  const std::string mine = ".tmp-" + std::to_string(::getpid());
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(output_dir_, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (AtomicFile::is_temporary_name(name) && name.ends_with(mine)) fs::remove(it->path(), ec);
  }
  fs::remove_all(fs::path(output_dir_) / output_names::kWorkDir, ec);
  std::fflush(nullptr);
  // Not exit(): the stuck worker's thread cannot be joined, and destructors would wait for it.
  std::_Exit(130);
}

}  // namespace winnow
