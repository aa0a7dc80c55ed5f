#include "pipeline/clock.h"

namespace winnow {

namespace {

class SystemClock final : public Clock {
 public:
  time_point now() override { return std::chrono::steady_clock::now(); }

  bool wait_until(ClockCondition& condition, std::unique_lock<std::mutex>& lock,
                  time_point deadline) override {
    if (deadline == time_point::max()) {
      condition.native().wait(lock);
      return true;
    }
    return condition.native().wait_until(lock, deadline) == std::cv_status::no_timeout;
  }
  void notify_one(ClockCondition& condition) override { condition.native().notify_one(); }
  void notify_all(ClockCondition& condition) override { condition.native().notify_all(); }
};

}  // namespace

Clock& Clock::system() {
  static SystemClock clock;
  return clock;
}

void Clock::sleep_until(time_point deadline) {
  std::mutex mutex;
  ClockCondition never(*this);  // nobody notifies it: only the deadline ends the wait
  std::unique_lock lock(mutex);
  never.wait_until(lock, deadline, [] { return false; });
}

ClockThread::ClockThread(Clock& clock, std::function<void()> body)
    : exit_(std::make_shared<Exit>(clock)) {
  clock.thread_begins();  // before it runs: the clock never sees a gap between creator and it
  try {
    thread_ = std::thread([&clock, exit = exit_, body = std::move(body)] {
      struct Ends {
        Clock& clock;
        Exit& exit;
        ~Ends() {
          {
            std::lock_guard lock(exit.mutex);
            exit.done = true;
            exit.done_cv.notify_all();  // a joiner counts as running again before this ends
          }
          clock.thread_ends();
        }
      } ends{clock, *exit};
      body();
    });
  } catch (...) {
    clock.thread_ends();
    throw;
  }
}

ClockThread& ClockThread::operator=(ClockThread&& other) noexcept {
  if (this != &other) {
    if (joinable()) join();
    exit_ = std::move(other.exit_);
    thread_ = std::move(other.thread_);
  }
  return *this;
}

ClockThread::~ClockThread() {
  if (joinable()) join();
}

void ClockThread::join() {
  {
    std::unique_lock lock(exit_->mutex);
    exit_->done_cv.wait(lock, [this] { return exit_->done; });
  }
  thread_.join();  // it has only its last few instructions left
}

}  // namespace winnow
