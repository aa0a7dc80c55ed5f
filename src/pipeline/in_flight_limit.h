#pragma once
// InFlightLimit: bounds the batches alive between the reader and the writer. The reader takes a
// slot before it reads a batch and the writer gives it back once the batch is written, so
// memory stays bounded by slots x batch size whatever the worker counts or queue sizes.
// No deadlock: a shard's batches are read in order, so the batch the writer waits for always
// holds a slot already.
#include <chrono>
#include <mutex>

#include "pipeline/clock.h"

namespace winnow {

class InFlightLimit {
 public:
  explicit InFlightLimit(size_t slots, Clock& clock = Clock::system())
      : freed_(clock), free_(slots < 1 ? 1 : slots) {}
  // Before anything was acquired: the number of slots.
  void set_slots(size_t slots) {
    std::lock_guard lock(mutex_);
    free_ = slots < 1 ? 1 : slots;
  }

  // Blocks until a slot is free; false when the run was cancelled.
  bool acquire() { return acquire_until(Clock::time_point::max()) == kAcquired; }

  enum Outcome { kAcquired, kTimedOut, kCancelled };
  // Also gives up at `deadline`, so a waiting worker can wake to see whether it should stop.
  Outcome acquire_until(Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    auto ready = [&] { return free_ > 0 || cancelled_; };
    if (!freed_.wait_until(lock, deadline, ready)) return kTimedOut;
    if (cancelled_) return kCancelled;
    --free_;
    return kAcquired;
  }

  void release() {
    {
      std::lock_guard lock(mutex_);
      ++free_;
    }
    freed_.notify_one();
  }

  void cancel() {
    {
      std::lock_guard lock(mutex_);
      cancelled_ = true;
    }
    freed_.notify_all();
  }

 private:
  std::mutex mutex_;
  ClockCondition freed_;
  size_t free_;
  bool cancelled_ = false;
};

}  // namespace winnow
