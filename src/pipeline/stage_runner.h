#pragma once
// StageRunner: the workers of one pipeline step. Each worker pops a batch from the input
// queue, runs the step on it and pushes it to the output queue. The worker count can change
// while the pipeline runs (set_workers), which is what the autoscaler needs; a shrink takes
// effect when a worker finishes its current batch, and only a worker past the grace period
// (set_grace) leaves. The last worker to leave closes the output.
//
// A new worker first runs the step's setup (if any): it is "starting" until that returns, then
// "ready"; a ready worker is "busy" while it processes a batch and "idle" otherwise. The time
// of each batch (service time, not queueing) goes to a sliding window the autoscaler reads.
//
// A step may have several parts (a fused group of stages, pipeline/step_fusion.h): a worker
// sets up every part, then runs all the parts on each batch in order. Each part keeps its own
// metrics (busy time, documents in and out, setup), so per-stage accounting survives fusion;
// the step's own metrics and service-time window cover the whole batch, which is what the
// autoscaler balances.
//
// Batches come from a StepInput: the queue the step before fills, or, for a pass's first step,
// the input files (pipeline/shard_source.h: the step's first part reads the batch). The last
// step of a pass has no output queue: its last part consumes each batch (writes it, or lets it
// go). Parts run only on batches with documents, except a consuming part, which also gets each
// shard's end marker; a worker holds the step's resources only while parts run.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "core/stage.h"
#include "core/status.h"
#include "pipeline/clock.h"
#include "pipeline/step_input.h"

namespace winnow {

class ResourcePool;
struct GpuBinding;

struct StepMetrics {
  std::atomic<uint64_t> busy_ns{0};
  std::atomic<uint64_t> batches{0};
  std::atomic<uint64_t> docs_in{0};   // documents still kept when the batch arrived
  std::atomic<uint64_t> docs_out{0};  // documents still kept when it left
  // Bytes that reached the step: the raw input for the read step, the kept documents' text
  // for every later one.
  std::atomic<uint64_t> bytes_in{0};
  std::atomic<uint64_t> source_docs{0};  // records the batches covered (documents + errors)
  std::atomic<uint64_t> setup_ns{0};     // all workers' setup, summed
  std::atomic<uint64_t> setups{0};
};

// The step's state at one instant, for the autoscaler, metrics and progress.
struct StepSnapshot {
  int target = 0;
  int starting = 0;           // in setup
  int ready = 0;              // set up and alive (busy + idle)
  int busy = 0;               // processing a batch now
  int protected_workers = 0;  // starting, or ready for less than the grace period
  // Busy time so far, including the part of the batches in progress: interval busy
  // fractions then neither lag nor clip at a batch boundary.
  uint64_t busy_ns = 0;
  // The same for each member of a fused step (empty for a step of one part), read under the
  // same lock, so a member's interval busy time never exceeds its group's.
  std::vector<uint64_t> part_busy_ns;
  // Over the sliding window of recent batches:
  size_t samples = 0;
  double mean_service_s = 0;
  double docs_per_batch = 0;  // source documents
  double kept_out_per_batch = 0;
};

class StageRunner {
 public:
  using Work = std::function<Status(DocBatch&)>;
  using Setup = std::function<Status()>;
  // Takes the batch (a shard's end marker too); for the last part of a pass's last step.
  using Consume = std::function<Status(BatchPtr)>;
  using OnFailure = std::function<void(const Status&)>;
  struct Part {
    std::string name;  // named in errors and in the per-part metrics
    Work work;         // or, for a consuming part, empty
    Setup setup;       // may be empty
    Consume consume;   // set for a consuming part only
  };

  // One part, named like the step.
  StageRunner(std::string name, Work work, BatchQueue& in, BatchQueue& out, OnFailure on_failure);
  // Several parts run in turn on each batch (at least one).
  StageRunner(std::string name, std::vector<Part> parts, BatchQueue& in, BatchQueue& out,
              OnFailure on_failure);
  // From any input; `out` is null when the last part consumes every batch.
  StageRunner(std::string name, std::vector<Part> parts, StepInput& in, BatchQueue* out,
              OnFailure on_failure);
  ~StageRunner();

  // Options, set before start().
  void set_setup(Setup setup) { parts_.front().setup = std::move(setup); }
  // Each batch is processed holding `needs` from `pool` (the run's budget).
  void set_resources(ResourcePool* pool, const StageResources& needs) {
    pool_ = pool;
    needs_ = needs;
  }
  void set_grace(std::chrono::milliseconds grace) { grace_ = grace; }
  // Where the workers read the time, wait and run (the steady clock unless a test injects one).
  void set_clock(Clock& clock) {
    clock_ = &clock;
    ended_cv_.set_clock(clock);
  }
  // The sliding window of service times: the last `batches`, and of those only the ones
  // younger than `max_age` (when > 0) unless fewer than kMinWindow would remain, so a change of
  // speed shows within a couple of autoscaler intervals.
  void set_window(size_t batches, std::chrono::milliseconds max_age = {}) {
    window_size_ = batches < 1 ? 1 : batches;
    window_age_ = max_age;
  }
  static constexpr size_t kMinWindow = 5;

  void start(int workers);
  void set_workers(int workers);  // at least 1; ignored once the step has ended
  // Blocks until every worker has left after the input ended (or was cancelled); workers can
  // still be added until then. join() afterwards.
  void wait_ended();
  void join();

  const std::string& name() const { return name_; }
  int target_workers() const { return target_.load(); }
  int live_workers() const { return live_.load(); }
  const StepMetrics& metrics() const { return metrics_; }
  size_t parts() const { return parts_.size(); }
  const std::string& part_name(size_t i) const { return parts_.at(i).name; }
  // Part i's share: busy time in that part alone, documents in/out and bytes as it saw them,
  // batches and source documents (each part sees every batch), its setup time.
  // A one-part step's part metrics are the step's.
  const StepMetrics& part_metrics(size_t i) const {
    return parts_.size() == 1 ? metrics_ : *part_metrics_.at(i);
  }
  StepSnapshot snapshot() const;
  bool ended() const { return ended_.load(); }  // every worker left after the input ended

 private:
  struct WorkerState {
    bool ready = false;
    bool busy = false;
    Clock::time_point ready_at;
    Clock::time_point busy_since;
    bool in_part = false;  // a fused member is running: `part`, since `part_since`
    size_t part = 0;
    Clock::time_point part_since;
  };
  struct Sample {
    Clock::time_point at;
    double service_s;
    uint64_t source_docs;
    uint64_t kept_out;
  };

  bool spawn();       // false once joined, or when the system refuses a thread (the run fails)
  void mark_ended();  // closes the output and wakes wait_ended()
  void worker_loop(std::shared_ptr<WorkerState> state);
  // A batch's records and kept documents as the consuming part took it.
  struct BatchTally {
    uint64_t records = 0;
    uint64_t kept = 0;
    bool marker = false;  // a shard's end marker
  };
  // The kept documents and their bytes of a batch as it comes in.
  struct BatchInput {
    uint64_t kept = 0;
    uint64_t bytes = 0;
  };
  enum class Departure { kStay, kRetry, kLeft };
  Status set_up_worker(WorkerState& state);
  Departure leave_if_surplus(const std::shared_ptr<WorkerState>& state);
  bool work_on(BatchPtr& batch, WorkerState& state, const GpuBinding& binding);
  static BatchInput tally_input(const DocBatch& batch);
  void count_batch(const BatchPtr& batch, const BatchTally& tally, const BatchInput& input,
                   Clock::time_point start, double service_s);
  Status run_parts(BatchPtr& batch, WorkerState& state, BatchTally& tally);
  Status run_work(const Part& part, BatchPtr& batch, BatchTally& tally);
  bool works_on(const DocBatch& batch) const;
  Status run_setup(const Part& part);
  bool may_leave(const WorkerState& state) const;
  void record(const Sample& sample);

  std::string name_;
  std::vector<Part> parts_;
  std::vector<std::unique_ptr<StepMetrics>> part_metrics_;
  std::unique_ptr<QueueInput> owned_input_;  // when built from a queue
  StepInput& in_;
  BatchQueue* out_;
  OnFailure on_failure_;
  ResourcePool* pool_ = nullptr;
  StageResources needs_;
  std::chrono::milliseconds grace_{0};
  size_t window_size_ = 64;
  std::chrono::milliseconds window_age_{0};
  std::atomic<int> target_{0};
  std::atomic<int> live_{0};
  std::atomic<bool> ended_{false};
  std::mutex ended_mutex_;
  Clock* clock_ = &Clock::system();
  ClockCondition ended_cv_;
  mutable std::mutex threads_mutex_;  // guards threads_, workers_, joined_
  std::vector<ClockThread> threads_;
  std::vector<std::shared_ptr<WorkerState>> workers_;
  bool joined_ = false;
  mutable std::mutex window_mutex_;
  std::deque<Sample> window_;
  StepMetrics metrics_;
};

}  // namespace winnow
