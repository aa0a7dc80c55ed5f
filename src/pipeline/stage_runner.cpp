#include "pipeline/stage_runner.h"

#include <chrono>
#include <exception>

namespace winnow {

namespace {
// How often an idle worker wakes to see whether it was asked to stop.
constexpr auto kWakeInterval = std::chrono::milliseconds(100);
}  // namespace

StageRunner::StageRunner(std::string name, Work work, BatchQueue& in, BatchQueue& out,
                         OnFailure on_failure)
    : name_(std::move(name)),
      work_(std::move(work)),
      in_(in),
      out_(out),
      on_failure_(std::move(on_failure)) {}

StageRunner::~StageRunner() { join(); }

void StageRunner::start(int workers) { set_workers(workers); }

void StageRunner::set_workers(int workers) {
  if (workers < 1) workers = 1;
  target_.store(workers);
  while (live_.load() < workers) spawn();
}

void StageRunner::spawn() {
  live_.fetch_add(1);
  std::lock_guard lock(threads_mutex_);
  threads_.emplace_back([this] { worker_loop(); });
}

void StageRunner::join() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(threads_mutex_);
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
}

Status StageRunner::run_work(DocBatch& batch) {
  // A stage that throws fails the run with a message; it never takes the process down.
  try {
    return work_(batch);
  } catch (const std::exception& e) {
    return Status::errorf("step '{}' failed on shard {} batch {}: {}", name_, batch.shard,
                          batch.sequence, e.what());
  } catch (...) {
    return Status::errorf("step '{}' failed on shard {} batch {}: unknown exception", name_,
                          batch.shard, batch.sequence);
  }
}

void StageRunner::worker_loop() {
  while (true) {
    int live = live_.load();
    if (live > target_.load()) {
      if (live_.compare_exchange_strong(live, live - 1)) return;  // shrunk; others carry on
      continue;
    }
    auto item = in_.pop_until(std::chrono::steady_clock::now() + kWakeInterval);
    if (!item) {
      if (in_.finished()) break;
      continue;
    }
    BatchPtr batch = std::move(*item);
    if (!batch->end_of_shard) {
      uint64_t kept_before = 0;
      uint64_t bytes_before = batch->size() == 0 ? batch->raw_input_bytes : 0;
      for (size_t i = 0; i < batch->size(); ++i) {
        if (batch->kept(i)) {
          ++kept_before;
          bytes_before += batch->text(i).size();
        }
      }
      auto start = std::chrono::steady_clock::now();
      Status status = run_work(*batch);
      auto elapsed = std::chrono::steady_clock::now() - start;
      metrics_.busy_ns += static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count());
      metrics_.batches += 1;
      metrics_.docs_in += kept_before;
      metrics_.bytes_in += bytes_before;
      metrics_.docs_out += batch->kept_count();
      if (!status.is_ok()) {
        on_failure_(status);
        break;
      }
    }
    if (!out_.push(std::move(batch))) break;  // the run was cancelled
  }
  if (live_.fetch_sub(1) == 1 && in_.finished()) out_.close();
}

}  // namespace winnow
