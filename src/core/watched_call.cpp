#include "core/watched_call.h"

namespace winnow {

WatchedCaller::~WatchedCaller() {
  if (!helper_.joinable()) return;
  {
    std::lock_guard lock(shared_->mutex);
    shared_->quit = true;
  }
  shared_->changed.notify_all();
  helper_.join();  // idle: a helper with a call in hand was abandoned, not kept
}

void WatchedCaller::helper_loop(std::shared_ptr<Shared> shared) {
  std::unique_lock lock(shared->mutex);
  while (true) {
    shared->changed.wait(lock, [&] { return shared->has_work || shared->quit; });
    if (shared->quit) return;
    std::function<void()> work = std::move(shared->work);
    shared->has_work = false;
    lock.unlock();
    work();
    work = nullptr;  // what the call owned goes now, not with the next call
    lock.lock();
    shared->done = true;
    if (shared->abandoned) return;  // nobody waits any more: this thread ends here
    shared->changed.notify_all();
  }
}

bool WatchedCaller::run_work(std::function<void()> work, std::chrono::nanoseconds limit) {
  if (!helper_.joinable()) {
    shared_ = std::make_shared<Shared>();
    helper_ = std::thread(helper_loop, shared_);
  }
  std::unique_lock lock(shared_->mutex);
  shared_->work = std::move(work);
  shared_->has_work = true;
  shared_->done = false;
  shared_->changed.notify_all();
  if (shared_->changed.wait_for(lock, limit, [&] { return shared_->done; })) return true;
  // Past the limit: leave the call to its thread, which ends once it returns.
  shared_->abandoned = true;
  lock.unlock();
  helper_.detach();
  shared_.reset();
  ++abandoned_;
  return false;
}

}  // namespace winnow
