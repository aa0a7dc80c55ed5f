#pragma once
// SimulatedClock: a Clock whose time moves only when every thread it knows of waits. Then it
// jumps to the earliest deadline among the waits and wakes those that reach it. Work between
// waits takes no simulated time; a stage that should cost time sleeps through the clock. So a
// pipeline on real threads runs on exact, repeatable timings however slow or loaded the machine
// is, and a test can hold the autoscaler's results (busy fractions, throughput, worker changes)
// to exact targets without a wall-clock bound.
//
// The threads it knows of: those started as ClockThread, and any that holds a Participant (the
// test's own thread while it runs a pipeline). Each must wait only through the clock (or for
// moments, on work that needs no other such thread): a thread blocked elsewhere counts as
// running, and time stands still until it returns. When every known thread waits without a
// deadline nothing can ever wake them: the clock prints that deadlock and aborts, so a test
// fails at once instead of hanging.
#include <list>
#include <mutex>

#include "pipeline/clock.h"

namespace winnow {

class SimulatedClock final : public Clock {
 public:
  // Starts at an arbitrary time far from the epoch (nothing may depend on its value).
  SimulatedClock();

  time_point now() override;
  bool wait_until(ClockCondition& condition, std::unique_lock<std::mutex>& lock,
                  time_point deadline) override;
  void notify_one(ClockCondition& condition) override;
  void notify_all(ClockCondition& condition) override;
  void thread_begins() override;
  void thread_ends() override;

  // The calling thread takes part while this lives (it waits through the clock meanwhile).
  class Participant {
   public:
    explicit Participant(SimulatedClock& clock) : clock_(clock) { clock_.thread_begins(); }
    ~Participant() { clock_.thread_ends(); }
    Participant(const Participant&) = delete;
    Participant& operator=(const Participant&) = delete;

   private:
    SimulatedClock& clock_;
  };

 private:
  struct Waiter {
    ClockCondition* condition;
    time_point deadline;
    bool done = false;
    bool timed_out = false;
    std::condition_variable wake;
  };
  // Under mutex_: the waiter leaves the list and counts as running again.
  void wake(std::list<Waiter*>::iterator it, bool timed_out);
  // Under mutex_: while no thread runs, moves time to the earliest deadline and wakes its
  // waiters.
  void advance_while_idle();

  std::mutex mutex_;
  time_point now_;
  int running_ = 0;
  std::list<Waiter*> waiters_;  // in the order they began to wait: notify_one wakes the first
};

}  // namespace winnow
