#pragma once
// StageRunner: the workers of one pipeline step. Each worker pops a batch from the input
// queue, runs the step on it and pushes it to the output queue. The worker count can change
// while the pipeline runs (set_workers), which is what an autoscaler needs; a shrink takes
// effect when a worker finishes its current batch. The last worker to leave closes the output.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/doc_batch.h"
#include "core/status.h"
#include "pipeline/bounded_queue.h"

namespace winnow {

using BatchPtr = std::unique_ptr<DocBatch>;
using BatchQueue = BoundedQueue<BatchPtr>;

struct StepMetrics {
  std::atomic<uint64_t> busy_ns{0};
  std::atomic<uint64_t> batches{0};
  std::atomic<uint64_t> docs_in{0};   // documents still kept when the batch arrived
  std::atomic<uint64_t> docs_out{0};  // documents still kept when it left
  // Bytes that reached the step: the raw input for the read step, the kept documents' text
  // for every later one.
  std::atomic<uint64_t> bytes_in{0};
};

class StageRunner {
 public:
  using Work = std::function<Status(DocBatch&)>;
  using OnFailure = std::function<void(const Status&)>;

  StageRunner(std::string name, Work work, BatchQueue& in, BatchQueue& out, OnFailure on_failure);
  ~StageRunner();

  void start(int workers);
  void set_workers(int workers);  // at least 1
  void join();

  const std::string& name() const { return name_; }
  int target_workers() const { return target_.load(); }
  int live_workers() const { return live_.load(); }
  const StepMetrics& metrics() const { return metrics_; }

 private:
  void spawn();
  void worker_loop();
  Status run_work(DocBatch& batch);

  std::string name_;
  Work work_;
  BatchQueue& in_;
  BatchQueue& out_;
  OnFailure on_failure_;
  std::atomic<int> target_{0};
  std::atomic<int> live_{0};
  std::mutex threads_mutex_;
  std::vector<std::thread> threads_;
  StepMetrics metrics_;
};

}  // namespace winnow
