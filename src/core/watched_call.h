#pragma once
// WatchedCaller: runs a call that may never end (a third-party library working through hostile
// input: gumbo on a page nested 100,000 deep takes 16 s and grows with the square of the depth)
// with a time limit. The call runs on a helper thread while the caller waits; past the limit the
// caller stops waiting and the call is abandoned: its thread is detached and finishes on its
// own, and the next call gets a new helper. Nothing can stop a thread from outside safely, so
// an abandoned call must own everything it touches (copies, shared_ptrs): it may outlive the
// caller, the stage and even the run. While it runs it costs a core beyond the run's budget;
// the `winnow` command ends the process without waiting for it (abandoned_any()).
//
// One caller per worker thread (thread_local): calls are not concurrent on one caller.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace winnow {

class WatchedCaller {
 public:
  WatchedCaller() = default;
  WatchedCaller(const WatchedCaller&) = delete;
  WatchedCaller& operator=(const WatchedCaller&) = delete;
  ~WatchedCaller();

  // `call`'s result, or nullopt when it ran past `limit` and was abandoned.
  template <typename R>
  std::optional<R> run(std::function<R()> call, std::chrono::nanoseconds limit) {
    auto result = std::make_shared<std::optional<R>>();
    bool finished = run_work([result, call = std::move(call)] { *result = call(); }, limit);
    if (!finished) return std::nullopt;
    return std::move(*result);
  }

  // Whether any call in this process was abandoned (and may still be running).
  static bool abandoned_any() { return abandoned_.load() > 0; }

 private:
  // Shared by the caller and its helper, so that an abandoned helper keeps what it uses.
  struct Shared {
    std::mutex mutex;
    std::condition_variable changed;
    std::function<void()> work;
    bool has_work = false;
    bool done = false;
    bool abandoned = false;
    bool quit = false;
  };
  static void helper_loop(std::shared_ptr<Shared> shared);
  bool run_work(std::function<void()> work, std::chrono::nanoseconds limit);

  std::shared_ptr<Shared> shared_;
  std::thread helper_;
  static inline std::atomic<uint64_t> abandoned_{0};
};

}  // namespace winnow
