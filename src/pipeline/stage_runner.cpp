#include "pipeline/stage_runner.h"

#include <chrono>
#include <exception>
#include <optional>
#include <system_error>

#include "core/worker_device.h"
#include "core/worker_wait.h"
#include "pipeline/resources.h"

namespace winnow {

namespace {
// How often an idle worker wakes to see whether it was asked to stop.
constexpr auto kWakeInterval = std::chrono::milliseconds(100);

uint64_t nanoseconds(Clock::duration d) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
}

// A worker's CPU share while it runs a batch, lent back to the pool for a WorkerWait (a
// network reply) and taken again after it.
class HeldCpu final : public CpuLease {
 public:
  HeldCpu(ResourcePool& pool, int cpus) : pool_(pool), cpus_{cpus, 0, false} {}
  void lend() override {
    if (!held_) return;
    pool_.release(cpus_);
    held_ = false;
  }
  void take_back() override {
    if (!held_) held_ = pool_.acquire(cpus_);  // false only when the run was cancelled
  }
  // What the worker still holds of `needs` (its GPU share is never lent).
  StageResources held_of(const StageResources& needs) const {
    StageResources out = needs;
    if (!held_) out.cpus = 0;
    return out;
  }

 private:
  ResourcePool& pool_;
  StageResources cpus_;
  bool held_ = true;
};
}  // namespace

StageRunner::StageRunner(std::string name, Work work, BatchQueue& in, BatchQueue& out,
                         OnFailure on_failure)
    : StageRunner(name, std::vector<Part>{Part{name, std::move(work), {}, {}}}, in, out,
                  std::move(on_failure)) {}

StageRunner::StageRunner(std::string name, std::vector<Part> parts, BatchQueue& in, BatchQueue& out,
                         OnFailure on_failure)
    : StageRunner(std::move(name), std::move(parts), *new QueueInput(in), &out,
                  std::move(on_failure)) {
  owned_input_.reset(static_cast<QueueInput*>(&in_));
}

StageRunner::StageRunner(std::string name, std::vector<Part> parts, StepInput& in, BatchQueue* out,
                         OnFailure on_failure)
    : name_(std::move(name)),
      parts_(std::move(parts)),
      in_(in),
      out_(out),
      on_failure_(std::move(on_failure)) {
  if (parts_.empty()) {
    parts_.push_back(Part{name_, [](DocBatch&) { return Status::ok(); }, {}, {}});
  }
  for (size_t i = 0; i < parts_.size(); ++i)
    part_metrics_.push_back(std::make_unique<StepMetrics>());
}

StageRunner::~StageRunner() { join(); }

void StageRunner::start(int workers) { set_workers(workers); }

void StageRunner::set_workers(int workers) {
  if (workers < 1) workers = 1;
  if (ended_.load()) return;
  target_.store(workers);
  while (live_.load() < workers) {
    if (!spawn()) return;
  }
}

bool StageRunner::spawn() {
  std::string problem;
  {
    std::lock_guard lock(threads_mutex_);
    if (joined_) return false;  // the run is over: no new thread may outlive join()
    live_.fetch_add(1);
    auto state = std::make_shared<WorkerState>();
    workers_.push_back(state);
    try {
      threads_.emplace_back(*clock_, [this, state] { worker_loop(state); });
      return true;
    } catch (const std::system_error& e) {  // the system refused another thread
      workers_.pop_back();
      live_.fetch_sub(1);
      problem = e.what();
    }
  }
  on_failure_(
      Status::errorf("step '{}': cannot start worker {}: {}", name_, live_.load() + 1, problem));
  if (live_.load() == 0) mark_ended();  // no worker will ever end the step
  return false;
}

void StageRunner::mark_ended() {
  if (out_) out_->close();
  {
    std::lock_guard lock(ended_mutex_);
    ended_.store(true);
  }
  ended_cv_.notify_all();
}

void StageRunner::wait_ended() {
  std::unique_lock lock(ended_mutex_);
  ended_cv_.wait(lock, [this] { return ended_.load(); });
}

void StageRunner::join() {
  std::vector<ClockThread> threads;
  {
    std::lock_guard lock(threads_mutex_);
    joined_ = true;
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
}

Status StageRunner::run_work(const Part& part, BatchPtr& batch, BatchTally& tally) {
  // Only a consuming part sees a shard's end marker (a reader's ticket is never one).
  if (batch->end_of_shard && !part.consume) return Status::ok();
  if (part.consume) {
    tally = {batch->source_records(), batch->kept_count(), batch->end_of_shard};
  }
  const uint32_t shard = batch->shard;
  const uint64_t sequence = batch->sequence;
  // A stage that throws fails the run with a message; it never takes the process down.
  try {
    if (part.consume) return part.consume(std::move(batch));
    return part.work(*batch);
  } catch (const std::exception& e) {
    return Status::errorf("step '{}' failed on shard {} batch {}: {}", part.name, shard, sequence,
                          e.what());
  } catch (...) {
    return Status::errorf("step '{}' failed on shard {} batch {}: unknown exception", part.name,
                          shard, sequence);
  }
}

bool StageRunner::works_on(const DocBatch& batch) const {
  return !batch.end_of_shard || static_cast<bool>(parts_.back().consume);
}

Status StageRunner::run_parts(BatchPtr& batch, WorkerState& state, BatchTally& tally) {
  if (parts_.size() == 1) return run_work(parts_.front(), batch, tally);  // the step's metrics
  // What reaches each part is what the one before kept: documents, and their text's bytes (an
  // unparsed batch's raw input for a first `read` part), as for unfused steps. A consumed
  // batch is gone: it reaches nothing further.
  auto kept_and_bytes = [&batch] {
    std::pair<uint64_t, uint64_t> out{0, 0};
    if (!batch) return out;
    out.second = batch->size() == 0 ? batch->raw_input_bytes : 0;
    for (size_t i = 0; i < batch->size(); ++i) {
      if (batch->kept(i)) {
        ++out.first;
        out.second += batch->text(i).size();
      }
    }
    return out;
  };
  auto [kept_in, bytes_in] = kept_and_bytes();
  // Each part's time runs from the previous part's end to its own end (accounting included),
  // and is added under the lock that snapshot() reads it with: a snapshot counts a part in
  // progress up to now, and each member's busy time only grows, never past its group's.
  // The clock is read under that lock too (see snapshot()).
  Clock::time_point start;
  {
    std::lock_guard lock(threads_mutex_);
    start = clock_->now();
    state.part = 0;
    state.part_since = start;
    state.in_part = true;
  }
  Status status = Status::ok();
  for (size_t k = 0; k < parts_.size(); ++k) {
    const uint64_t records = batch->source_records();
    const bool was_marker = batch->end_of_shard;
    const bool consuming = static_cast<bool>(parts_[k].consume);
    status = run_work(parts_[k], batch, tally);
    auto [kept_out, bytes_out] = kept_and_bytes();
    if (consuming) kept_out = kept_in;  // what it took, it let through (wrote)
    StepMetrics& m = *part_metrics_[k];
    // A shard's end marker is no batch of documents (nor a reader's ticket that became one).
    if (batch ? !batch->end_of_shard : !was_marker) {
      m.batches += 1;
      m.docs_in += kept_in;
      m.bytes_in += bytes_in;
      m.docs_out += kept_out;
      // Known once a `read` part has parsed; a consumed batch's as it was taken.
      m.source_docs += batch ? batch->source_records() : records;
    }
    bool last = k + 1 == parts_.size() || !status.is_ok();
    {
      std::lock_guard lock(threads_mutex_);
      auto end = clock_->now();
      m.busy_ns += nanoseconds(end - start);
      state.part = k + 1;
      state.part_since = end;
      state.in_part = !last;
      start = end;
    }
    if (last) break;
    kept_in = kept_out;
    bytes_in = bytes_out;
  }
  return status;
}

Status StageRunner::run_setup(const Part& part) {
  if (!part.setup) return Status::ok();
  try {
    return part.setup();
  } catch (const std::exception& e) {
    return Status::errorf("step '{}' failed to set up a worker: {}", part.name, e.what());
  } catch (...) {
    return Status::errorf("step '{}' failed to set up a worker: unknown exception", part.name);
  }
}

bool StageRunner::may_leave(const WorkerState& state) const {
  return state.ready && clock_->now() - state.ready_at >= grace_;
}

void StageRunner::record(const Sample& sample) {
  std::lock_guard lock(window_mutex_);
  window_.push_back(sample);
  while (window_.size() > window_size_) window_.pop_front();
  if (window_age_.count() > 0) {
    auto oldest = sample.at - window_age_;
    while (window_.size() > kMinWindow && window_.front().at < oldest) window_.pop_front();
  }
}

StepSnapshot StageRunner::snapshot() const {
  StepSnapshot s;
  s.target = target_.load();
  {
    std::lock_guard lock(threads_mutex_);
    // Every clock reading the busy times depend on is taken under this lock, here and in the
    // workers, so snapshots and workers' updates happen in one order: a snapshot's `now` is
    // never older than a busy_since or part_since it sees (read before the lock, a waiting
    // snapshot's now could be: a negative in-progress time, wrapped to a huge one), and never
    // later than the end of a batch or part it sees still in progress (a worker's end read
    // before its lock could be: a snapshot counting past that end, then the busy time going
    // back down). So busy times only grow and a fused member's interval busy time never
    // exceeds its group's.
    auto now = clock_->now();
    s.busy_ns += metrics_.busy_ns.load();
    if (parts_.size() > 1) {
      for (const auto& m : part_metrics_) s.part_busy_ns.push_back(m->busy_ns.load());
    }
    for (const auto& w : workers_) {
      if (!w->ready) {
        ++s.starting;
        ++s.protected_workers;
        continue;
      }
      ++s.ready;
      if (w->busy) {
        ++s.busy;
        s.busy_ns += nanoseconds(now - w->busy_since);
        if (w->in_part) s.part_busy_ns.at(w->part) += nanoseconds(now - w->part_since);
      }
      if (now - w->ready_at < grace_) ++s.protected_workers;
    }
  }
  std::lock_guard lock(window_mutex_);
  s.samples = window_.size();
  if (s.samples > 0) {
    double service = 0, docs = 0, kept = 0;
    for (const Sample& x : window_) {
      service += x.service_s;
      docs += static_cast<double>(x.source_docs);
      kept += static_cast<double>(x.kept_out);
    }
    s.mean_service_s = service / s.samples;
    s.docs_per_batch = docs / s.samples;
    s.kept_out_per_batch = kept / s.samples;
  }
  return s;
}

void StageRunner::worker_loop(std::shared_ptr<WorkerState> state) {
  // A GPU worker is bound to one device for its life (its setup loads models and buffers
  // there); the binding is let go whichever way the loop ends.
  GpuBinding binding = pool_ ? pool_->bind_gpu(needs_) : GpuBinding{};
  set_worker_gpu_device(binding.device);
  struct Unbind {
    ResourcePool* pool;
    const StageResources& needs;
    const GpuBinding& binding;
    ~Unbind() {
      if (pool) pool->unbind_gpu(needs, binding);
      set_worker_gpu_device(-1);
    }
  } unbind{pool_, needs_, binding};
  Status setup = set_up_worker(*state);
  if (!setup.is_ok()) on_failure_(setup);
  while (setup.is_ok()) {
    const Departure departure = leave_if_surplus(state);
    if (departure == Departure::kLeft) return;  // shrunk; others carry on
    if (departure == Departure::kRetry) continue;
    BatchPtr batch = in_.take(clock_->now() + kWakeInterval);
    if (!batch) {
      if (in_.finished()) break;
      continue;
    }
    if (works_on(*batch) && !work_on(batch, *state, binding)) break;
    if (!batch) continue;  // consumed by the last part
    if (!out_) {
      on_failure_(Status::errorf("step '{}' has no output for shard {} batch {}", name_,
                                 batch->shard, batch->sequence));
      break;
    }
    if (!out_->push(std::move(batch))) break;  // the run was cancelled
  }
  {
    std::lock_guard lock(threads_mutex_);
    std::erase(workers_, state);
  }
  if (live_.fetch_sub(1) == 1 && in_.finished()) mark_ended();
}

// Every part's setup, each timed apart, before the worker's first batch; then the worker is
// ready (whether or not setup succeeded: the failure is the caller's to report).
Status StageRunner::set_up_worker(WorkerState& state) {
  Status setup;
  bool any_setup = false;
  auto setup_begin = clock_->now();
  for (size_t k = 0; k < parts_.size() && setup.is_ok(); ++k) {
    if (!parts_[k].setup) continue;
    any_setup = true;
    auto begin = clock_->now();
    setup = run_setup(parts_[k]);
    part_metrics_[k]->setup_ns += nanoseconds(clock_->now() - begin);
    part_metrics_[k]->setups += 1;
  }
  auto setup_end = clock_->now();
  if (any_setup) {
    metrics_.setup_ns += nanoseconds(setup_end - setup_begin);
    metrics_.setups += 1;
  }
  std::lock_guard lock(threads_mutex_);
  state.ready = true;
  state.ready_at = setup_end;
  return setup;
}

// With more workers live than the target, this one leaves when it may (see may_leave): kLeft
// once it is out of the worker list, kRetry when another left first, kStay otherwise.
StageRunner::Departure StageRunner::leave_if_surplus(const std::shared_ptr<WorkerState>& state) {
  int live = live_.load();
  if (live <= target_.load()) return Departure::kStay;
  bool leave = false;
  {
    std::lock_guard lock(threads_mutex_);
    leave = may_leave(*state);
  }
  if (!leave) return Departure::kStay;
  if (!live_.compare_exchange_strong(live, live - 1)) return Departure::kRetry;
  std::lock_guard lock(threads_mutex_);
  std::erase(workers_, state);
  return Departure::kLeft;
}

// One batch through the worker's parts, holding the step's resources meanwhile, with its
// metrics and service-time sample recorded. False when the worker must stop: the run was
// cancelled while it waited for resources, or a part failed (reported).
bool StageRunner::work_on(BatchPtr& batch, WorkerState& state, const GpuBinding& binding) {
  const BatchInput input = tally_input(*batch);
  if (pool_ && !pool_->acquire(needs_, binding.device)) return false;  // cancelled
  // The clock is read under the lock, as snapshot() reads it.
  Clock::time_point start;
  {
    std::lock_guard lock(threads_mutex_);
    start = clock_->now();
    state.busy = true;
    state.busy_since = start;
  }
  BatchTally tally;
  std::optional<HeldCpu> held_cpu;
  if (pool_ && needs_.cpus > 0) {
    held_cpu.emplace(*pool_, needs_.cpus);
    set_worker_cpu_lease(&*held_cpu);
  }
  Status status = run_parts(batch, state, tally);
  set_worker_cpu_lease(nullptr);
  // The service time (the window's sample) is the work alone; the busy time runs to the
  // moment the lock is held, so that snapshots stay in order (see snapshot()).
  auto service = clock_->now() - start;
  {
    // Under the lock, so a snapshot sees the batch either in progress or done, never neither.
    std::lock_guard lock(threads_mutex_);
    state.busy = false;
    metrics_.busy_ns += nanoseconds(clock_->now() - start);
  }
  if (pool_) pool_->release(held_cpu ? held_cpu->held_of(needs_) : needs_, binding.device);
  count_batch(batch, tally, input, start, std::chrono::duration<double>(service).count());
  if (!status.is_ok()) on_failure_(status);
  return status.is_ok();
}

// The kept documents and their bytes as a batch comes in (an empty batch's raw input bytes).
StageRunner::BatchInput StageRunner::tally_input(const DocBatch& batch) {
  BatchInput input;
  input.bytes = batch.size() == 0 ? batch.raw_input_bytes : 0;
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch.kept(i)) {
      ++input.kept;
      input.bytes += batch.text(i).size();
    }
  }
  return input;
}

// The step's metrics and a service-time sample for one batch. A consumed batch was written
// (or let go) whole: what came in went out. A reader's ticket that turned out to be a shard's
// end marker is no batch of documents.
void StageRunner::count_batch(const BatchPtr& batch, const BatchTally& tally,
                              const BatchInput& input, Clock::time_point start, double service_s) {
  const bool consumed = !batch;
  if (consumed ? tally.marker : batch->end_of_shard) return;
  uint64_t source_docs = consumed ? tally.records : batch->source_records();
  uint64_t kept_after = consumed ? tally.kept : batch->kept_count();
  metrics_.batches += 1;
  metrics_.docs_in += input.kept;
  metrics_.bytes_in += input.bytes;
  metrics_.docs_out += kept_after;
  metrics_.source_docs += source_docs;
  record({start, service_s, source_docs, kept_after});
}

}  // namespace winnow
