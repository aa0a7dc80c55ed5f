#pragma once
// StepInput: where a step's workers take their batches from. Most steps read the queue the step
// before fills (QueueInput); the first step of a pass takes them from the input files
// (pipeline/shard_source.h), where taking a batch means claiming a file reader, whose reading
// the step's first part then does within the CPU budget.
#include <chrono>
#include <cstddef>
#include <memory>

#include "core/doc_batch.h"
#include "pipeline/bounded_queue.h"

namespace winnow {

using BatchPtr = std::unique_ptr<DocBatch>;
using BatchQueue = BoundedQueue<BatchPtr>;

class StepInput {
 public:
  virtual ~StepInput() = default;
  // The next batch, or null when none came before `deadline` or the input has ended.
  virtual BatchPtr take(std::chrono::steady_clock::time_point deadline) = 0;
  // True once take() will never return a batch again.
  virtual bool finished() const = 0;
  // For the monitor and the autoscaler: work waiting now, and the room for it (a queue's
  // batches and capacity; a source's readers free to claim, and its workers).
  virtual size_t waiting() const = 0;
  virtual size_t capacity() const = 0;
  // Follows the consumer's worker count (a queue keeps one batch per worker plus one).
  virtual void set_capacity(size_t capacity) = 0;
};

class QueueInput final : public StepInput {
 public:
  explicit QueueInput(BatchQueue& queue) : queue_(queue) {}
  BatchPtr take(std::chrono::steady_clock::time_point deadline) override {
    auto item = queue_.pop_until(deadline);
    return item ? std::move(*item) : nullptr;
  }
  bool finished() const override { return queue_.finished(); }
  size_t waiting() const override { return queue_.size(); }
  size_t capacity() const override { return queue_.capacity(); }
  void set_capacity(size_t capacity) override { queue_.set_capacity(capacity); }

 private:
  BatchQueue& queue_;
};

}  // namespace winnow
