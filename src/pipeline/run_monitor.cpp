#include "pipeline/run_monitor.h"

#include <algorithm>

#include "core/json_text.h"
#include "pipeline/progress_display.h"

namespace winnow {

namespace {
constexpr auto kDisplayEvery = std::chrono::milliseconds(500);
constexpr size_t kMaxHistory = 4096;
}  // namespace

RunMonitor::RunMonitor(std::vector<MonitoredStep> steps, const ResourceBudget& budget,
                       const AutoscaleSettings& settings, std::function<RunTotalsNow()> totals)
    : steps_(std::move(steps)), budget_(budget), settings_(settings), totals_(std::move(totals)) {}

RunMonitor::~RunMonitor() { stop(); }

void RunMonitor::start() {
  begin_ = interval_begin_ = clock_->now();
  acc_.assign(steps_.size(), {});
  totals_per_step_.assign(steps_.size(), {});
  for (size_t i = 0; i < steps_.size(); ++i) {
    const StepMetrics& m = steps_[i].runner->metrics();
    mark_interval_start(i, steps_[i].runner->snapshot(), m.batches.load(), m.source_docs.load());
    int target = steps_[i].runner->target_workers();
    totals_per_step_[i].workers_min = totals_per_step_[i].workers_max = target;
  }
  if (!metrics_path_.empty()) metrics_file_ = std::fopen(metrics_path_.c_str(), "w");
  thread_ = ClockThread(*clock_, [this] { loop(); });
}

void RunMonitor::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stop_) return;
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  double seconds = std::chrono::duration<double>(clock_->now() - interval_begin_).count();
  if (!acc_.empty()) end_interval(seconds, true);
  if (metrics_file_) {
    std::fclose(metrics_file_);
    metrics_file_ = nullptr;
  }
  if (progress_) progress_->stop();
}

void RunMonitor::mark_interval_start(size_t step, const StepSnapshot& snap, uint64_t batches,
                                     uint64_t source_docs) {
  Accumulator& a = acc_[step];
  a = Accumulator{};
  a.busy_ns = snap.busy_ns;
  a.batches = batches;
  a.source_docs = source_docs;
  a.part_busy_ns = snap.part_busy_ns;
  const StageRunner& runner = *steps_[step].runner;
  for (size_t k = 0; k < snap.part_busy_ns.size(); ++k) {
    a.part_batches.push_back(runner.part_metrics(k).batches.load());
  }
}

void RunMonitor::loop() {
  // Sampling often enough to see a queue's typical state, not so often that it costs anything.
  auto sample_every = std::chrono::milliseconds(std::clamp(settings_.interval_ms / 20, 5, 50));
  auto interval = std::chrono::milliseconds(std::max(1, settings_.interval_ms));
  auto last_display = clock_->now();
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, sample_every, [&] { return stop_; })) {
    lock.unlock();
    tick();
    auto now = clock_->now();
    if (now - interval_begin_ >= interval) {
      end_interval(std::chrono::duration<double>(now - interval_begin_).count(), false);
    }
    if (progress_ && now - last_display >= kDisplayEvery) {
      last_display = now;
      RunSample live;
      RunTotalsNow t = totals_();
      live.t = std::chrono::duration<double>(now - begin_).count();
      live.documents_done = t.documents_done;
      live.input_bytes = t.input_bytes;
      live.compressed_bytes = t.compressed_bytes;
      if (!history_.empty()) live.steps = history_.back().steps;
      progress_->update(live);
    }
    lock.lock();
  }
}

void RunMonitor::tick() {
  for (size_t i = 0; i < steps_.size(); ++i) {
    Accumulator& a = acc_[i];
    size_t queued = steps_[i].input->waiting();
    size_t capacity = std::max<size_t>(1, steps_[i].input->capacity());
    ++a.ticks;
    if (queued == 0) ++a.empty_ticks;
    if (queued >= capacity) ++a.full_ticks;
    const BatchQueue* out = steps_[i].output;
    if (out && out->size() >= out->capacity()) ++a.output_full_ticks;
    a.fill_sum += std::min(1.0, static_cast<double>(queued) / static_cast<double>(capacity));
    StepSnapshot snap = steps_[i].runner->snapshot();
    a.ready_sum += snap.ready;
  }
}

void RunMonitor::end_interval(double seconds, bool final) {
  if (seconds <= 0) return;
  if (acc_[0].ticks == 0) tick();
  RunSample sample;
  auto now = clock_->now();
  sample.t = std::chrono::duration<double>(now - begin_).count();
  RunTotalsNow t = totals_();
  sample.documents_done = t.documents_done;
  sample.input_bytes = t.input_bytes;
  sample.compressed_bytes = t.compressed_bytes;
  std::vector<StepObservation> observations(steps_.size());
  for (size_t i = 0; i < steps_.size(); ++i) {
    sample.steps.push_back(close_step_interval(i, seconds, observations[i]));
  }
  if (settings_.enabled && !final) {
    ++cycles_;
    rescale(observations, sample);
  }
  keep_sample(std::move(sample));
  interval_begin_ = now;
  if (progress_ && !final) progress_->update(history_.back());
}

// Step i's figures over the interval just ended (`seconds` long), what the autoscaler observes
// of it, and its run totals; then its next interval starts.
StepSample RunMonitor::close_step_interval(size_t i, double seconds, StepObservation& o) {
  const MonitoredStep& step = steps_[i];
  Accumulator& a = acc_[i];
  const StepMetrics& m = step.runner->metrics();
  StepSnapshot snap = step.runner->snapshot();
  uint64_t busy_ns = snap.busy_ns, batches = m.batches.load(), source_docs = m.source_docs.load();
  double ready_mean = a.ticks ? a.ready_sum / a.ticks : snap.ready;
  StepSample s;
  s.target = snap.target;
  s.starting = snap.starting;
  s.ready = snap.ready;
  s.busy = snap.busy;
  s.idle = snap.ready - snap.busy;
  double busy_s = (busy_ns - a.busy_ns) / 1e9;
  s.busy_fraction = ready_mean > 0 ? std::min(1.0, busy_s / (seconds * ready_mean)) : 0;
  s.input_queue = step.input->waiting();
  s.input_capacity = step.input->capacity();
  s.input_fill = a.ticks ? a.fill_sum / a.ticks : 0;
  s.output_queue = step.output ? step.output->size() : 0;
  s.output_capacity = step.output ? step.output->capacity() : 0;
  s.batches_per_s = (batches - a.batches) / seconds;
  s.docs_per_s = (source_docs - a.source_docs) / seconds;
  s.mean_service_ms = snap.mean_service_s * 1e3;
  s.setup_s = m.setup_ns.load() / 1e9;
  add_part_samples(i, seconds, ready_mean, snap, s);

  Totals& tot = totals_per_step_[i];
  tot.ready_seconds += ready_mean * seconds;
  tot.fill_sum += s.input_fill;
  ++tot.intervals;

  o.needs = step.needs;
  o.pinned = step.pinned;
  o.finished = step.input->finished() || step.runner->ended();
  o.target = snap.target;
  o.protected_workers = snap.protected_workers;
  o.samples = snap.samples;
  o.mean_service_s = snap.mean_service_s;
  o.docs_per_batch = snap.docs_per_batch;
  o.input_empty_fraction = a.ticks ? double(a.empty_ticks) / a.ticks : 0;
  o.input_full_fraction = a.ticks ? double(a.full_ticks) / a.ticks : 0;
  o.output_full_fraction = a.ticks ? double(a.output_full_ticks) / a.ticks : 0;
  o.busy_fraction = s.busy_fraction;

  mark_interval_start(i, snap, batches, source_docs);
  return s;
}

// A fused step's parts: each one's share of the busy time and its mean service time.
void RunMonitor::add_part_samples(size_t i, double seconds, double ready_mean,
                                  const StepSnapshot& snap, StepSample& s) const {
  const StageRunner& runner = *steps_[i].runner;
  const Accumulator& a = acc_[i];
  for (size_t k = 0; k < snap.part_busy_ns.size(); ++k) {
    const StepMetrics& pm = runner.part_metrics(k);
    uint64_t part_busy = snap.part_busy_ns[k] - a.part_busy_ns.at(k);
    uint64_t part_batches = pm.batches.load() - a.part_batches.at(k);
    PartSample& p = s.parts.emplace_back();
    p.busy_fraction = ready_mean > 0 ? std::min(1.0, part_busy / 1e9 / (seconds * ready_mean)) : 0;
    p.mean_service_ms = part_batches ? part_busy / 1e6 / static_cast<double>(part_batches) : 0;
    p.setup_s = pm.setup_ns.load() / 1e9;
  }
}

// One autoscaling cycle: the plan for every step, applied to the steps still running.
void RunMonitor::rescale(const std::vector<StepObservation>& observations, RunSample& sample) {
  std::vector<StepPlan> plan = plan_workers(observations, budget_, settings_, memory_);
  for (size_t i = 0; i < steps_.size(); ++i) {
    sample.steps[i].decision = plan[i].why;
    if (observations[i].finished) continue;
    int before = observations[i].target;
    int after = plan[i].target;
    if (after == before) continue;
    // The input queue holds one batch per worker plus one, as when the run started.
    if (after > before) steps_[i].input->set_capacity(static_cast<size_t>(after) + 1);
    steps_[i].runner->set_workers(after);
    if (after < before) steps_[i].input->set_capacity(static_cast<size_t>(after) + 1);
    Totals& tot = totals_per_step_[i];
    if (after > before) tot.scale_ups += after - before;
    if (after < before) tot.scale_downs += before - after;
    tot.workers_min = std::min(tot.workers_min, after);
    tot.workers_max = std::max(tot.workers_max, after);
  }
}

// The sample into metrics.jsonl (every one) and the in-memory history, which only feeds
// report.html's charts: past kMaxHistory samples, every other one is dropped, so a day-long run
// keeps a bounded, evenly thinned series.
void RunMonitor::keep_sample(RunSample sample) {
  if (metrics_file_) {
    std::string line = metrics_line(sample);
    std::fwrite(line.data(), 1, line.size(), metrics_file_);
    std::fflush(metrics_file_);
  }
  history_.push_back(std::move(sample));
  if (history_.size() >= kMaxHistory) {
    size_t kept = 0;
    for (size_t k = 0; k < history_.size(); k += 2) history_[kept++] = std::move(history_[k]);
    history_.resize(kept);
  }
}

std::string RunMonitor::metrics_line(const RunSample& sample) const {
  JsonWriter out(false);
  out.begin_object();
  out.key("t").value(sample.t);
  out.key("documents_done").value(sample.documents_done);
  out.key("input_bytes").value(sample.input_bytes);
  out.key("compressed_bytes").value(sample.compressed_bytes);
  out.key("steps").begin_array();
  // One object per stage, as without fusion: a fused step's members each get the step's
  // workers, queues and rates with their own busy fraction, service time and setup, and name
  // the step they ran in ("fused_group").
  for (size_t i = 0; i < sample.steps.size(); ++i) {
    const StepSample& s = sample.steps[i];
    const StageRunner& runner = *steps_[i].runner;
    if (s.parts.empty()) {
      write_step_json(out, steps_[i].name, s, nullptr, "");
      continue;
    }
    for (size_t k = 0; k < s.parts.size() && k < runner.parts(); ++k) {
      write_step_json(out, runner.part_name(k), s, &s.parts[k], steps_[i].name);
    }
  }
  out.end_array();
  out.end_object();
  return out.take() + "\n";
}

void RunMonitor::write_step_json(JsonWriter& out, const std::string& name, const StepSample& s,
                                 const PartSample* part, const std::string& group) const {
  out.begin_object();
  out.key("name").value(name);
  if (part) out.key("fused_group").value(group);
  out.key("workers").begin_object();
  out.key("target").value(s.target);
  out.key("starting").value(s.starting);
  out.key("ready").value(s.ready);
  out.key("busy").value(s.busy);
  out.key("idle").value(s.idle);
  out.end_object();
  out.key("busy_fraction").value(part ? part->busy_fraction : s.busy_fraction);
  if (part) out.key("group_busy_fraction").value(s.busy_fraction);
  out.key("input_queue").value(static_cast<uint64_t>(s.input_queue));
  out.key("input_capacity").value(static_cast<uint64_t>(s.input_capacity));
  out.key("input_fill").value(s.input_fill);
  out.key("output_queue").value(static_cast<uint64_t>(s.output_queue));
  out.key("output_capacity").value(static_cast<uint64_t>(s.output_capacity));
  out.key("batches_per_s").value(s.batches_per_s);
  out.key("docs_per_s").value(s.docs_per_s);
  out.key("mean_service_ms").value(part ? part->mean_service_ms : s.mean_service_ms);
  if (part) out.key("group_mean_service_ms").value(s.mean_service_ms);
  out.key("setup_s").value(part ? part->setup_s : s.setup_s);
  if (!s.decision.empty()) out.key("decision").value(s.decision);
  out.end_object();
}

std::vector<StepSummary> RunMonitor::summaries() const {
  std::vector<StepSummary> out(steps_.size());
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Totals& t = totals_per_step_.at(i);
    const StepMetrics& m = steps_[i].runner->metrics();
    StepSummary& s = out[i];
    s.workers_min = t.workers_min;
    s.workers_max = t.workers_max;
    s.scale_ups = t.scale_ups;
    s.scale_downs = t.scale_downs;
    double busy_s = m.busy_ns.load() / 1e9;
    s.busy_fraction = t.ready_seconds > 0 ? std::min(1.0, busy_s / t.ready_seconds) : 0;
    uint64_t batches = m.batches.load();
    s.mean_service_ms = batches ? busy_s * 1e3 / batches : 0;
    s.setup_seconds = m.setup_ns.load() / 1e9;
    s.mean_input_fill = t.intervals ? t.fill_sum / t.intervals : 0;
    const StageRunner& runner = *steps_[i].runner;
    for (size_t k = 0; runner.parts() > 1 && k < runner.parts(); ++k) {
      const StepMetrics& pm = runner.part_metrics(k);
      StepSummary part = s;
      part.parts.clear();
      double part_busy_s = pm.busy_ns.load() / 1e9;
      part.busy_fraction = t.ready_seconds > 0 ? std::min(1.0, part_busy_s / t.ready_seconds) : 0;
      uint64_t part_batches = pm.batches.load();
      part.mean_service_ms = part_batches ? part_busy_s * 1e3 / part_batches : 0;
      part.setup_seconds = pm.setup_ns.load() / 1e9;
      s.parts.push_back(std::move(part));
    }
  }
  return out;
}

}  // namespace winnow
