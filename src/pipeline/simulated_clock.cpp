#include "pipeline/simulated_clock.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace winnow {

SimulatedClock::SimulatedClock() : now_(time_point{} + std::chrono::hours(1000)) {}

Clock::time_point SimulatedClock::now() {
  std::lock_guard lock(mutex_);
  return now_;
}

bool SimulatedClock::wait_until(ClockCondition& condition, std::unique_lock<std::mutex>& lock,
                                time_point deadline) {
  std::unique_lock guard(mutex_);
  if (deadline <= now_) return false;
  Waiter waiter{&condition, deadline};
  waiters_.push_back(&waiter);
  --running_;
  // Registered before the caller's lock goes: whoever changes the state under that lock and
  // then notifies finds this waiter.
  lock.unlock();
  advance_while_idle();
  waiter.wake.wait(guard, [&] { return waiter.done; });
  guard.unlock();
  lock.lock();
  return !waiter.timed_out;
}

void SimulatedClock::wake(std::list<Waiter*>::iterator it, bool timed_out) {
  Waiter* waiter = *it;
  waiters_.erase(it);
  waiter->done = true;
  waiter->timed_out = timed_out;
  ++running_;  // now, not when its thread gets the CPU: time must not move before it runs
  waiter->wake.notify_one();
}

void SimulatedClock::notify_one(ClockCondition& condition) {
  std::lock_guard guard(mutex_);
  auto it = std::find_if(waiters_.begin(), waiters_.end(),
                         [&](const Waiter* w) { return w->condition == &condition; });
  if (it != waiters_.end()) wake(it, false);
}

void SimulatedClock::notify_all(ClockCondition& condition) {
  std::lock_guard guard(mutex_);
  for (auto it = waiters_.begin(); it != waiters_.end();) {
    auto next = std::next(it);
    if ((*it)->condition == &condition) wake(it, false);
    it = next;
  }
}

void SimulatedClock::thread_begins() {
  std::lock_guard guard(mutex_);
  ++running_;
}

void SimulatedClock::thread_ends() {
  std::lock_guard guard(mutex_);
  --running_;
  advance_while_idle();
}

void SimulatedClock::advance_while_idle() {
  while (running_ == 0 && !waiters_.empty()) {
    time_point earliest = time_point::max();
    for (const Waiter* w : waiters_) earliest = std::min(earliest, w->deadline);
    if (earliest == time_point::max()) {
      std::fprintf(stderr,
                   "SimulatedClock: every thread waits and none has a deadline (%zu waiting): "
                   "a deadlock\n",
                   waiters_.size());
      std::abort();
    }
    now_ = std::max(now_, earliest);
    for (auto it = waiters_.begin(); it != waiters_.end();) {
      auto next = std::next(it);
      if ((*it)->deadline <= now_) wake(it, true);
      it = next;
    }
  }
}

}  // namespace winnow
