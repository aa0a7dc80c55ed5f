#pragma once
// Clock: where the executor reads the time, waits and starts its threads. Every time reading
// the autoscaler's decisions depend on (service times, busy fractions, grace periods, the
// control interval) and every wait between the executor's threads goes through one Clock, so
// a test can run the executor on a simulated clock (pipeline/simulated_clock.h) and measure
// its decisions, not the speed of the machine it runs on. A run uses Clock::system(), the
// steady clock and plain condition variables.
//
// The rule for code under the executor: read the time with clock.now(), wait on a
// ClockCondition (never a bare std::condition_variable, never a sleep), and start a thread
// that waits on either as a ClockThread. Waits on work that does not depend on other executor
// threads (a compressor's helper thread, a mutex held for a moment) may stay plain: the
// simulated clock sees such a thread as running, and time stands still until it waits again.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace winnow {

class ClockCondition;

class Clock {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  using duration = std::chrono::steady_clock::duration;

  virtual ~Clock() = default;
  // The steady clock: what every run uses unless a test injects another.
  static Clock& system();

  virtual time_point now() = 0;
  // Blocks on `condition` with `lock` released, until notified or `deadline`
  // (time_point::max(): no deadline); false when the deadline passed. May return early:
  // callers re-check what they wait for (ClockCondition's waits do).
  virtual bool wait_until(ClockCondition& condition, std::unique_lock<std::mutex>& lock,
                          time_point deadline) = 0;
  virtual void notify_one(ClockCondition& condition) = 0;
  virtual void notify_all(ClockCondition& condition) = 0;
  // A thread that waits through this clock begins and ends (ClockThread calls these).
  virtual void thread_begins() {}
  virtual void thread_ends() {}

  void sleep_until(time_point deadline);
  void sleep_for(duration d) { sleep_until(now() + d); }
  double seconds_since(time_point t) {
    return std::chrono::duration<double>(now() - t).count();
  }
};

// A condition variable whose waits and notifications go through a Clock.
class ClockCondition {
 public:
  explicit ClockCondition(Clock& clock = Clock::system()) : clock_(&clock) {}
  ClockCondition(const ClockCondition&) = delete;
  ClockCondition& operator=(const ClockCondition&) = delete;
  // Before anyone waits on it.
  void set_clock(Clock& clock) { clock_ = &clock; }
  Clock& clock() const { return *clock_; }

  template <typename Ready>
  void wait(std::unique_lock<std::mutex>& lock, Ready ready) {
    while (!ready()) clock_->wait_until(*this, lock, Clock::time_point::max());
  }
  // False when `deadline` passed and `ready` still does not hold.
  template <typename Ready>
  bool wait_until(std::unique_lock<std::mutex>& lock, Clock::time_point deadline, Ready ready) {
    while (!ready()) {
      if (!clock_->wait_until(*this, lock, deadline)) return ready();
    }
    return true;
  }
  template <typename Ready>
  bool wait_for(std::unique_lock<std::mutex>& lock, Clock::duration timeout, Ready ready) {
    return wait_until(lock, clock_->now() + timeout, ready);
  }
  void notify_one() { clock_->notify_one(*this); }
  void notify_all() { clock_->notify_all(*this); }

  // The system clock waits on this.
  std::condition_variable& native() { return native_; }

 private:
  Clock* clock_;
  std::condition_variable native_;
};

// A thread the clock knows of: a simulated clock advances only while every such thread waits.
// join() waits through the clock, so the joining thread counts as waiting meanwhile.
class ClockThread {
 public:
  ClockThread() = default;
  ClockThread(Clock& clock, std::function<void()> body);
  ClockThread(ClockThread&&) noexcept = default;
  ClockThread& operator=(ClockThread&&) noexcept;
  ~ClockThread();  // joins a thread still running

  bool joinable() const { return thread_.joinable(); }
  void join();

 private:
  struct Exit {
    std::mutex mutex;
    ClockCondition done_cv;
    bool done = false;
    explicit Exit(Clock& clock) : done_cv(clock) {}
  };
  std::shared_ptr<Exit> exit_;
  std::thread thread_;
};

}  // namespace winnow
