#include "pipeline/executor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "core/hash.h"
#include "io/input_files.h"
#include "io/input_reader.h"
#include "io/jsonl_encoder.h"
#include "io/jsonl_parser.h"
#include "io/shard_output.h"
#include "io/shard_reader.h"
#include "pipeline/global_passes.h"
#include "pipeline/in_flight_limit.h"
#include "pipeline/output_layout.h"
#include "pipeline/progress_display.h"
#include "pipeline/reader_threads.h"
#include "pipeline/report_html.h"
#include "pipeline/resources.h"
#include "pipeline/run_monitor.h"
#include "pipeline/run_report.h"
#include "pipeline/stage_runner.h"
#include "pipeline/step_fusion.h"
#include "pipeline/step_parts.h"

namespace winnow {

namespace fs = std::filesystem;

namespace {

struct BuiltStage {
  std::string name;
  std::string type;
  int workers = 0;
  std::unique_ptr<Stage> stage;
  StageResources resources;  // one worker's, after a GPU fallback
};

// One execution of a pipeline: owns the threads, queues and per-shard writer state.
class PipelineRun {
 public:
  PipelineRun(const PipelineConfig& config, const RunOptions& options)
      : config_(config), options_(options) {}

  RunReport execute();

 private:
  Status resolve_resources();
  Status plan();
  Status build_stages();
  std::vector<FusionCandidate> fusion_candidates() const;
  void plan_groups();
  Status run_global_passes_first();
  void run_threads();
  void fail(const Status& status);
  void read_shards();
  void write_batches();
  Status write_batch(BatchPtr batch);
  Status finish_shard(uint32_t shard);
  std::unique_ptr<ShardOutput> make_output(uint32_t shard) const;

  struct ShardState {
    std::map<uint64_t, BatchPtr> pending;  // batches that arrived before their turn
    uint64_t next = 0;
    std::unique_ptr<ShardOutput> output;
    RunCounts counts;
  };

  const PipelineConfig& config_;
  const RunOptions& options_;
  RunReport report_;
  // plan
  std::vector<InputFile> inputs_;
  std::unique_ptr<OutputLayout> layout_;
  std::vector<uint32_t> pending_shards_;
  Compression compression_ = Compression::kZstd;
  OnError on_error_ = OnError::kFail;
  uint64_t batch_size_ = 0;
  int threads_ = 1;
  ResourceBudget budget_;
  AutoscaleSettings autoscale_;
  std::vector<StageResources> stage_resources_;  // per config stage, after a GPU fallback
  // stages
  ReasonTable reasons_;
  std::vector<BuiltStage> stages_;
  std::vector<StageGroup> groups_;  // read, the stages, write as executor steps
  std::unique_ptr<JsonlParser> parser_;
  std::unique_ptr<JsonlEncoder> encoder_;
  // run state
  std::vector<std::unique_ptr<BatchQueue>> queues_;
  std::unique_ptr<InFlightLimit> in_flight_;
  std::vector<std::unique_ptr<StageRunner>> runners_;
  std::unique_ptr<ResourcePool> pool_;
  std::unique_ptr<RunMonitor> monitor_;
  std::atomic<size_t> next_pending_{0};
  std::mutex failure_mutex_;
  Status failure_;
  std::atomic<bool> failed_{false};
  std::map<uint32_t, ShardState> shards_;
  RunCounts run_counts_;  // shards finished by this run
  std::atomic<uint64_t> documents_done_{0};
  std::atomic<uint64_t> input_bytes_read_{0};
  std::atomic<uint64_t> compressed_bytes_done_{0};
};

void PipelineRun::fail(const Status& status) {
  {
    std::lock_guard lock(failure_mutex_);
    if (failed_.exchange(true)) return;
    failure_ = status;
  }
  for (auto& queue : queues_) queue->cancel();
  if (in_flight_) in_flight_->cancel();
  if (pool_) pool_->cancel();
}

// The budget (CPU threads, GPUs) and what each stage's workers need of it. Runs before any
// stage is built, so a GPU stage on a machine without one fails before loading anything.
Status PipelineRun::resolve_resources() {
  threads_ = options_.threads >= 0 ? options_.threads : config_.threads;
  if (threads_ == 0) threads_ = std::max(1u, std::thread::hardware_concurrency());
  report_.threads = threads_;
  autoscale_ = config_.autoscale;
  if (options_.autoscale) autoscale_.enabled = *options_.autoscale;
  report_.autoscaled = autoscale_.enabled;
  report_.autoscale_interval_ms = autoscale_.interval_ms;
  report_.gpus_detected = detect_gpus();
  double gpus = options_.gpus >= 0 ? options_.gpus : config_.gpus;
  budget_ = {threads_, gpus >= 0 ? gpus : report_.gpus_detected};
  // Without the autoscaler `threads` keeps its old meaning, workers per step: the CPU budget is
  // then what those workers add up to.
  if (!autoscale_.enabled) budget_.cpus = threads_ * static_cast<int>(config_.stages.size() + 2);
  report_.gpus = budget_.gpus;
  for (const StageConfig& sc : config_.stages) {
    auto needs = resolve_stage_resources(sc.name, sc.spec->resources, budget_);
    if (!needs.is_ok()) return needs.status();
    stage_resources_.push_back(*needs);
  }
  return Status::ok();
}

Status PipelineRun::plan() {
  compression_ = options_.output_compression.value_or(config_.output_compression);
  on_error_ = options_.on_error.value_or(config_.on_error);
  batch_size_ = options_.batch_size.value_or(config_.batch_size);

  auto inputs = discover_inputs(options_.inputs.empty() ? config_.input_paths : options_.inputs);
  if (!inputs.is_ok()) return inputs.status();
  inputs_ = std::move(inputs).value();

  std::string output = options_.output.empty() ? config_.output_path : options_.output;
  if (output.empty()) return Status::error("no output folder given (output.path or --output)");
  report_.output_dir = output;
  // An output folder inside an input folder must not feed a later run as input.
  std::error_code ec;
  fs::path output_abs = fs::weakly_canonical(fs::absolute(output), ec);
  std::erase_if(inputs_, [&](const InputFile& input) {
    fs::path path = fs::weakly_canonical(fs::absolute(input.path), ec);
    auto [end, _] = std::mismatch(output_abs.begin(), output_abs.end(), path.begin(), path.end());
    return end == output_abs.end();
  });
  if (inputs_.empty()) return Status::errorf("no input left outside the output folder {}", output);
  if (inputs_.size() > DocKey::kMaxShard) return Status::error("too many input files");
  report_.input_files = inputs_.size();

  // The fingerprint covers the input list too: resuming over other inputs would mix outputs.
  std::string input_list;
  for (const auto& input : inputs_) input_list += input.path + "\n";
  report_.fingerprint = fmt::format("{}-{:016x}-{}", config_.fingerprint, hash64(input_list),
                                    compression_name(compression_));

  layout_ = std::make_unique<OutputLayout>(output, inputs_, compression_);
  WINNOW_RETURN_IF_ERROR(layout_->prepare(options_.overwrite));

  // Shards with a marker from this same pipeline are done; a marker from another is an error.
  for (const auto& entry : std::filesystem::directory_iterator(layout_->done_dir(), ec)) {
    if (entry.path().extension() != ".json") continue;
    auto marker = CompletionMarker::read(entry.path().string());
    if (!marker.is_ok()) return marker.status();
    if (marker->fingerprint != report_.fingerprint) {
      return Status::errorf(
          "output folder {} holds shards made by a different pipeline, input set or format "
          "({}); use --overwrite to start again, or another output folder",
          output, entry.path().string());
    }
  }
  for (uint32_t i = 0; i < inputs_.size(); ++i) {
    const std::string& marker_path = layout_->shard(i).marker;
    if (std::filesystem::exists(marker_path)) {
      auto marker = CompletionMarker::read(marker_path);
      if (!marker.is_ok()) return marker.status();
      report_.totals.merge(marker->counts);
      ++report_.skipped_files;
    } else {
      pending_shards_.push_back(i);
    }
  }
  return Status::ok();
}

Status PipelineRun::build_stages() {
  parser_ = std::make_unique<JsonlParser>(ParseOptions{config_.text_field, config_.id_field});
  int index = 0;
  for (const StageConfig& sc : config_.stages) {
    StageContext context(reasons_, sc.name, index, config_.seed);
    context.set_gpus(static_cast<int>(budget_.gpus));
    auto stage = sc.spec->make(sc.params, context);
    if (!stage.is_ok()) return stage.status();  // StageParams::error names file, line and stage
    stages_.push_back(
        {sc.name, sc.spec->name, sc.workers, std::move(stage).value(), stage_resources_.at(index)});
    ++index;
  }
  encoder_ = std::make_unique<JsonlEncoder>(
      EncodeOptions{config_.text_field, config_.id_field, config_.write_rejected}, reasons_);
  return Status::ok();
}

// The executor's steps are read, the stages, write; fusion groups consecutive ordinary CPU
// steps among them (read and write are such steps), so a chain of CPU stages runs as one step
// from parse to encode.
std::vector<FusionCandidate> PipelineRun::fusion_candidates() const {
  std::vector<FusionCandidate> candidates;
  candidates.push_back({"read", StageResources{}, 0, false});
  for (const BuiltStage& built : stages_) {
    candidates.push_back(
        {built.name, built.resources, built.workers, built.stage->global_step() != nullptr});
  }
  candidates.push_back({"write", StageResources{}, 0, false});
  return candidates;
}

void PipelineRun::plan_groups() {
  bool fuse = options_.fuse.value_or(config_.fuse);
  report_.fused = fuse;
  groups_ = plan_fusion(fusion_candidates(), fuse);
}

void PipelineRun::read_shards() {
  // JSONL or WARC per file (InputReader); WARC batches arrive parsed and skip the parse step.
  const InputOptions options = config_.input_options(batch_size_);
  while (!failed_) {
    size_t slot = next_pending_.fetch_add(1);
    if (slot >= pending_shards_.size()) return;
    uint32_t shard = pending_shards_[slot];
    InputReader reader(inputs_[shard].path, shard, options);
    uint64_t reported = 0;
    while (true) {
      if (!in_flight_->acquire()) return;  // cancelled
      BatchPtr batch = reader.next();
      if (!batch) {
        in_flight_->release();
        break;
      }
      input_bytes_read_ += batch->raw_input_bytes;
      uint64_t consumed = reader.compressed_bytes_read();
      compressed_bytes_done_ += consumed - reported;
      reported = consumed;
      if (!queues_.front()->push(std::move(batch))) return;  // cancelled
    }
  }
}

Status PipelineRun::write_batch(BatchPtr batch) {
  uint32_t shard = batch->shard;
  ShardState& state = shards_[shard];
  state.pending.emplace(batch->sequence, std::move(batch));
  for (auto it = state.pending.begin(); it != state.pending.end() && it->first == state.next;
       it = state.pending.erase(it)) {
    DocBatch& b = *it->second;
    ++state.next;
    in_flight_->release();
    if (b.end_of_shard) return finish_shard(shard);
    if (!state.output) state.output = make_output(shard);
    WINNOW_RETURN_IF_ERROR(state.output->write(b));
    RunCounts& c = state.counts;
    uint64_t records = b.size() + b.errors.size();
    c.documents += records;
    for (size_t i = 0; i < b.size(); ++i) {
      if (b.kept(i)) {
        ++c.kept;
      } else {
        ++c.dropped[reasons_.at(b.drop_reason(i)).qualified()];
      }
    }
    for (const auto& e : b.errors) ++c.errors[std::string(input_error_name(e.kind))];
    c.blank_lines += b.blank_lines;
    c.skipped_records += b.skipped_records;
    c.input_bytes += b.raw_input_bytes;
    c.output_bytes += b.encoded_kept.size();
    documents_done_ += records;
  }
  return Status::ok();
}

std::unique_ptr<ShardOutput> PipelineRun::make_output(uint32_t shard) const {
  // Compression threads never change output bytes (see ByteSink); compression is usually the
  // costliest step of writing, so it may use every thread.
  return std::make_unique<ShardOutput>(layout_->shard(shard), compression_,
                                       config_.compression_level, std::max(1, threads_),
                                       config_.max_file_bytes);
}

Status PipelineRun::finish_shard(uint32_t shard) {
  ShardState& state = shards_[shard];
  if (!state.output) state.output = make_output(shard);  // an input with no records
  CompletionMarker marker{report_.fingerprint, inputs_[shard].path, state.counts};
  WINNOW_RETURN_IF_ERROR(state.output->commit(marker));
  run_counts_.merge(state.counts);
  ++report_.completed_files;
  shards_.erase(shard);
  return Status::ok();
}

void PipelineRun::write_batches() {
  while (auto batch = queues_.back()->pop()) {
    Status status;
    try {
      status = write_batch(std::move(*batch));
    } catch (const std::exception& e) {
      status = Status::errorf("writing output failed: {}", e.what());
    }
    if (!status.is_ok()) {
      fail(status);
      break;
    }
  }
  // Unfinished shards (a failed run) drop their outputs: temporary files are removed.
  shards_.clear();
}

void PipelineRun::run_threads() {
  // Steps: read (parse), the stages, write (encode), with consecutive ordinary CPU steps fused
  // into one (pipeline/step_fusion.h). Queue k feeds executor step k.
  std::vector<StageRunner::Part> all;  // read, each stage, write
  all.push_back(parse_part(*parser_, inputs_, on_error_));
  for (const BuiltStage& built : stages_) all.push_back(stage_part(built.name, *built.stage));
  all.push_back({"write",
                 [this](DocBatch& batch) {
                   encoder_->encode(batch, inputs_[batch.shard].path);
                   return Status::ok();
                 },
                 {}});
  std::vector<FusionCandidate> candidates = fusion_candidates();

  std::vector<std::pair<std::string, std::vector<StageRunner::Part>>> steps;
  std::vector<int> workers;
  // Autoscaled steps start with one worker each and grow to what they need; without the
  // autoscaler every unpinned step gets `threads` workers. Pinned steps get their count.
  const int unpinned_start = autoscale_.enabled ? 1 : threads_;
  std::vector<MonitoredStep> monitored;
  for (const StageGroup& group : groups_) {
    std::vector<StageRunner::Part> parts(all.begin() + group.first,
                                         all.begin() + group.first + group.count);
    // A fused group holds only unpinned one-thread CPU steps: one worker needs what its first
    // member's does.
    const FusionCandidate& first = candidates[group.first];
    const int pinned = first.pinned;
    steps.emplace_back(group.name, std::move(parts));
    workers.push_back(pinned > 0 ? pinned : unpinned_start);
    monitored.push_back({group.name, nullptr, nullptr, nullptr, first.resources, pinned});
  }

  // Enough batches in flight to keep every core busy with one and have one more queued per
  // step; memory is this times the batch size, however many workers the steps have.
  in_flight_ =
      std::make_unique<InFlightLimit>(2 * static_cast<size_t>(threads_) + steps.size() + 2);
  for (size_t i = 0; i <= steps.size(); ++i) {
    size_t consumers = i < steps.size() ? static_cast<size_t>(workers[i]) : 1;
    queues_.push_back(std::make_unique<BatchQueue>(std::max<size_t>(2, consumers + 1)));
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    runners_.push_back(std::make_unique<StageRunner>(steps[i].first, std::move(steps[i].second),
                                                     *queues_[i], *queues_[i + 1],
                                                     [this](const Status& s) { fail(s); }));
  }
  // The budget holds at run time too: a worker processes a batch only while holding its
  // step's resources, so more steps than threads take turns instead of oversubscribing.
  pool_ = std::make_unique<ResourcePool>(budget_);
  for (size_t i = 0; i < runners_.size(); ++i) {
    MonitoredStep& m = monitored[i];
    m.runner = runners_[i].get();
    m.input = queues_[i].get();
    m.output = queues_[i + 1].get();
    runners_[i]->set_resources(pool_.get(), m.needs);
    runners_[i]->set_grace(std::chrono::milliseconds(autoscale_.enabled ? autoscale_.grace_ms : 0));
    runners_[i]->set_window(static_cast<size_t>(autoscale_.window),
                            std::chrono::milliseconds(2 * autoscale_.interval_ms));
  }

  std::unique_ptr<ProgressDisplay> progress;
  if (options_.progress) {
    uint64_t total = 0;
    for (uint32_t shard : pending_shards_) total += inputs_[shard].size;
    std::vector<std::string> names;
    for (const auto& m : monitored) names.push_back(m.name);
    progress = std::make_unique<ProgressDisplay>(total, std::move(names),
                                                 ProgressDisplay::stderr_is_terminal());
  }
  monitor_ = std::make_unique<RunMonitor>(std::move(monitored), budget_, autoscale_, [this] {
    return RunTotalsNow{documents_done_.load(), input_bytes_read_.load(),
                        compressed_bytes_done_.load()};
  });
  monitor_->set_metrics_path(layout_->metrics_path());
  monitor_->set_progress(progress.get());

  for (size_t i = 0; i < runners_.size(); ++i) runners_[i]->start(workers[i]);
  monitor_->start();
  std::thread writer([this] { write_batches(); });
  std::atomic<bool> finished{false};
  std::thread watcher([this, &finished] {
    while (!finished && options_.stop_requested) {
      if (options_.stop_requested->load()) {
        fail(
            Status::error("interrupted: shards finished so far are complete; run again to "
                          "resume the rest"));
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  run_reader_threads(
      threads_, pending_shards_.size(), [this] { read_shards(); },
      [this](const Status& status) { fail(status); });
  queues_.front()->close();
  for (auto& runner : runners_) runner->join();
  writer.join();
  finished = true;
  watcher.join();
  monitor_->stop();
}

// Global steps (dedup) need an identify pass over the whole input before the streaming pass
// can remove anything; pipeline/global_passes.cpp runs those passes.
Status PipelineRun::run_global_passes_first() {
  GlobalPassPlan plan;
  for (auto& built : stages_) plan.stages.emplace_back(built.name, built.stage.get());
  if (!has_global_steps(plan.stages)) {
    if (options_.passes != PassMode::kAll) {
      return Status::error("the pipeline has no dedup (global) stage: nothing to identify");
    }
    return Status::ok();
  }
  plan.config = &config_;
  plan.options = &options_;
  plan.inputs = &inputs_;
  plan.parser = parser_.get();
  plan.fuse = report_.fused;
  plan.budget = budget_;
  plan.autoscale = autoscale_;
  std::vector<FusionCandidate> candidates = fusion_candidates();
  plan.fusion.assign(candidates.begin() + 1, candidates.end() - 1);  // the stages
  plan.output_dir = layout_->dir();
  plan.threads = threads_;
  plan.batch_size = batch_size_;
  plan.on_error = on_error_;
  return run_global_passes(plan, report_.global_steps);
}

RunReport PipelineRun::execute() {
  auto begin = std::chrono::steady_clock::now();
  // Stages first: a bad parameter must fail before the output folder is touched.
  Status status = resolve_resources();
  if (status.is_ok()) status = build_stages();
  report_.setup_failed = !status.is_ok();
  if (status.is_ok()) plan_groups();
  if (status.is_ok()) status = plan();
  bool planned = status.is_ok();
  if (status.is_ok()) status = run_global_passes_first();
  report_.identify_only = options_.passes == PassMode::kIdentifyOnly;
  if (status.is_ok() && options_.passes != PassMode::kIdentifyOnly) {
    run_threads();
    if (failed_) status = failure_;
  }
  report_.totals.merge(run_counts_);
  report_.status = status;
  report_.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::vector<StepTiming> timings;
  timings.push_back({"read", "read", 0, nullptr});
  for (const auto& built : stages_) timings.push_back({built.name, built.type, 0, nullptr});
  timings.push_back({"write", "write", 0, nullptr});
  std::vector<StepSummary> summaries;
  if (monitor_) {
    summaries = monitor_->summaries();
    report_.samples = monitor_->history();
    report_.autoscale_cycles = monitor_->cycles();
  }
  // Runner r ran group r's steps (timings are read, the stages, write, as the groups index
  // them). A fused group's members report their own part of the step's metrics and summary.
  for (size_t r = 0; r < runners_.size() && r < groups_.size(); ++r) {
    const StageRunner& runner = *runners_[r];
    const StepSummary* summary = r < summaries.size() ? &summaries[r] : nullptr;
    for (size_t k = 0; k < runner.parts(); ++k) {
      StepTiming& timing = timings.at(groups_[r].first + k);
      timing.workers = runner.target_workers();
      timing.metrics = &runner.part_metrics(k);
      if (summary) timing.summary = runner.parts() > 1 ? &summary->parts.at(k) : summary;
    }
  }
  report_.steps = derive_steps(report_.totals, timings);
  for (size_t i = 1; i + 1 < report_.steps.size() && i - 1 < stages_.size(); ++i) {
    report_.steps[i].resources = stages_[i - 1].resources;
    report_.steps[i].pinned = stages_[i - 1].workers > 0;
  }
  for (size_t g = 0; g < groups_.size(); ++g) {
    const StageGroup& group = groups_[g];
    if (!group.fused()) continue;
    FusedGroupReport fused;
    fused.name = group.name;
    fused.first_step = group.first;
    fused.steps = group.count;
    if (g < runners_.size()) {
      const StageRunner& runner = *runners_[g];
      fused.workers = runner.target_workers();
      fused.batches = runner.metrics().batches.load();
      fused.busy_seconds = runner.metrics().busy_ns.load() / 1e9;
      if (g < summaries.size()) {
        fused.summary = summaries[g];
        fused.summary.parts.clear();
      }
    }
    for (size_t k = fused.first_step; k < fused.first_step + fused.steps; ++k) {
      if (k < report_.steps.size()) report_.steps[k].fused_group = group.name;
    }
    report_.fused_groups.push_back(std::move(fused));
  }
  // A run refused at planning (say, over another pipeline's output) leaves that output's
  // stats.json alone.
  if (planned) {
    Status written = write_stats_json(report_, layout_->stats_path());
    if (report_.status.is_ok() && !written.is_ok()) report_.status = written;
    written = write_report_html(report_, layout_->report_path());
    if (report_.status.is_ok() && !written.is_ok()) report_.status = written;
  }
  return report_;
}

}  // namespace

RunReport run_pipeline(const PipelineConfig& config, const RunOptions& options) {
  PipelineRun run(config, options);
  return run.execute();
}

}  // namespace winnow
