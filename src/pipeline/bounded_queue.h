#pragma once
// BoundedQueue: the link between two pipeline steps. push() blocks while the queue is full
// (backpressure: memory stays bounded); pop() blocks while it is empty. close() ends the stream
// once drained; cancel() ends it at once (a failed run), dropping what is queued.
#include <chrono>
#include <deque>
#include <mutex>
#include <optional>

#include "pipeline/clock.h"

namespace winnow {

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(size_t capacity, Clock& clock = Clock::system())
      : not_empty_(clock), not_full_(clock), capacity_(capacity < 1 ? 1 : capacity) {}

  // False when the queue was cancelled (the item is dropped).
  bool push(T item) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return items_.size() < capacity_ || cancelled_; });
    if (cancelled_) return false;
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return true;
  }

  // nullopt when the stream has ended (closed and drained, or cancelled).
  std::optional<T> pop() { return pop_until(Clock::time_point::max()); }

  // Like pop(), but also gives up at `deadline` (then timed_out() of the result holds: nullopt
  // while !finished()). Lets workers wake to check whether they were asked to stop.
  std::optional<T> pop_until(Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    auto ready = [&] { return !items_.empty() || closed_ || cancelled_; };
    if (!not_empty_.wait_until(lock, deadline, ready)) return std::nullopt;
    if (cancelled_ || items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_empty_.notify_all();
  }

  void cancel() {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    items_.clear();
    not_empty_.notify_all();
    not_full_.notify_all();
  }

  // True once no item will ever come out again.
  bool finished() const {
    std::lock_guard lock(mutex_);
    return cancelled_ || (closed_ && items_.empty());
  }
  size_t size() const {
    std::lock_guard lock(mutex_);
    return items_.size();
  }
  size_t capacity() const {
    std::lock_guard lock(mutex_);
    return capacity_;
  }
  // Follows the consumer's worker count as the autoscaler changes it; items already queued
  // beyond a smaller capacity stay (push waits until the queue is below it again).
  void set_capacity(size_t capacity) {
    std::lock_guard lock(mutex_);
    capacity_ = capacity < 1 ? 1 : capacity;
    not_full_.notify_all();
  }

 private:
  mutable std::mutex mutex_;
  ClockCondition not_empty_;
  ClockCondition not_full_;
  std::deque<T> items_;
  size_t capacity_;
  bool closed_ = false;
  bool cancelled_ = false;
};

}  // namespace winnow
