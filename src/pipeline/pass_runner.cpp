#include "pipeline/pass_runner.h"

#include <algorithm>
#include <chrono>

namespace winnow {

PassRunner::PassRunner(ShardSource& source, std::vector<PassStep> steps, PassSettings settings)
    : source_(source), settings_(std::move(settings)) {
  parts_.push_back(source_.read_part());
  candidates_.push_back({"read", StageResources{}, 0, false});
  for (PassStep& step : steps) {
    parts_.push_back(std::move(step.part));
    candidates_.push_back(std::move(step.fusion));
  }
  groups_ = plan_fusion(candidates_, settings_.fuse);
  // Without the autoscaler `threads` keeps its old meaning, workers per step: the CPU budget is
  // then what those workers add up to.
  ResourceBudget budget = settings_.budget;
  if (!settings_.autoscale.enabled) {
    budget.cpus = std::max(1, settings_.threads) * static_cast<int>(groups_.size());
  }
  pool_ = std::make_unique<ResourcePool>(budget, *settings_.clock);
}

PassRunner::~PassRunner() {
  for (auto& runner : runners_) runner->join();
  if (monitor_) monitor_->stop();
}

std::vector<PartTotal> PassRunner::part_totals() const {
  std::vector<PartTotal> totals;
  for (size_t g = 0; g < runners_.size(); ++g) {
    const StageRunner& runner = *runners_[g];
    for (size_t k = 0; k < runner.parts(); ++k) {
      const StepMetrics& m = runner.part_metrics(k);
      totals.push_back({runner.part_name(k), m.busy_ns.load(), m.batches.load()});
    }
  }
  return totals;
}

uint64_t PassRunner::busy_ns_of(const std::vector<std::string>& names) const {
  uint64_t total = 0;
  for (const PartTotal& part : part_totals()) {
    if (std::find(names.begin(), names.end(), part.name) != names.end()) total += part.busy_ns;
  }
  return total;
}

void PassRunner::fail(const Status& status) {
  {
    std::lock_guard lock(failure_mutex_);
    if (failed_.exchange(true)) return;
    failure_ = status;
  }
  for (auto& queue : queues_) queue->cancel();
  source_.cancel();
  if (pool_) pool_->cancel();
}

Status PassRunner::run() {
  const int threads = std::max(1, settings_.threads);
  const bool autoscale = settings_.autoscale.enabled;
  ResourceBudget budget = settings_.budget;
  if (!autoscale) budget.cpus = threads * static_cast<int>(groups_.size());  // as the pool's

  // Autoscaled steps start with one worker each and grow to what they need; pinned steps get
  // their count. A pass that is one step (a pipeline of CPU stages, fused) has nothing to
  // balance: it starts with the whole budget.
  std::vector<int> workers;
  std::vector<MonitoredStep> monitored;
  for (const StageGroup& group : groups_) {
    // A fused group holds only unpinned one-thread CPU steps: one worker needs what its first
    // member's does.
    const FusionCandidate& first = candidates_[group.first];
    int start = autoscale ? 1 : threads;
    if (autoscale && groups_.size() == 1) start = max_workers_for(first.resources, budget);
    workers.push_back(first.pinned > 0 ? first.pinned : std::max(1, start));
    monitored.push_back({group.name, nullptr, nullptr, nullptr, first.resources, first.pinned});
  }
  // Enough batches in flight to keep every core busy with one and have one more queued per
  // step; memory is this times the batch size, however many workers the steps have.
  source_.set_in_flight(2 * static_cast<size_t>(threads) + groups_.size() + 2);
  source_.set_capacity(static_cast<size_t>(workers.front()) + 1);
  for (size_t g = 1; g < groups_.size(); ++g) {
    queues_.push_back(std::make_unique<BatchQueue>(
        std::max<size_t>(2, static_cast<size_t>(workers[g]) + 1), *settings_.clock));
  }
  auto on_failure = [this](const Status& s) { fail(s); };
  for (size_t g = 0; g < groups_.size(); ++g) {
    const StageGroup& group = groups_[g];
    std::vector<StageRunner::Part> parts(parts_.begin() + group.first,
                                         parts_.begin() + group.first + group.count);
    StepInput* input = g == 0 ? static_cast<StepInput*>(&source_) : nullptr;
    if (g > 0) {
      owned_inputs_.push_back(std::make_unique<QueueInput>(*queues_[g - 1]));
      input = owned_inputs_.back().get();
    }
    BatchQueue* output = g + 1 < groups_.size() ? queues_[g].get() : nullptr;
    runners_.push_back(
        std::make_unique<StageRunner>(group.name, std::move(parts), *input, output, on_failure));
    StageRunner& runner = *runners_.back();
    MonitoredStep& m = monitored[g];
    m.runner = &runner;
    m.input = input;
    m.output = output;
    // The budget holds at run time too: a worker works only while holding its step's
    // resources, so more steps than threads take turns instead of oversubscribing.
    runner.set_resources(pool_.get(), m.needs);
    runner.set_clock(*settings_.clock);
    runner.set_grace(std::chrono::milliseconds(autoscale ? settings_.autoscale.grace_ms : 0));
    runner.set_window(static_cast<size_t>(settings_.autoscale.window),
                      std::chrono::milliseconds(2 * settings_.autoscale.interval_ms));
  }
  monitor_ = std::make_unique<RunMonitor>(std::move(monitored), budget, settings_.autoscale,
                                          [this] {
                                            return RunTotalsNow{
                                                settings_.documents_done
                                                    ? settings_.documents_done()
                                                    : 0,
                                                source_.input_bytes_read(),
                                                source_.compressed_bytes_read()};
                                          });
  monitor_->set_metrics_path(settings_.metrics_path);
  monitor_->set_progress(settings_.progress);
  monitor_->set_clock(*settings_.clock);

  for (size_t g = 0; g < runners_.size(); ++g) runners_[g]->start(workers[g]);
  monitor_->start();
  std::atomic<bool> finished{false};
  ClockThread watcher(*settings_.clock, [this, &finished] {
    while (!finished && settings_.stop_requested) {
      if (settings_.stop_requested->load()) {
        fail(Status::error(settings_.interrupted_message));
        return;
      }
      settings_.clock->sleep_for(std::chrono::milliseconds(50));
    }
  });
  // The autoscaler may add workers until a step has ended; only then may it be joined.
  for (auto& runner : runners_) runner->wait_ended();
  for (auto& runner : runners_) runner->join();
  finished = true;
  watcher.join();
  monitor_->stop();
  std::lock_guard lock(failure_mutex_);
  return failure_;
}

}  // namespace winnow
