#include "pipeline/executor.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <limits>
#include <set>
#include <thread>

#include "core/hash.h"
#include "dist/comm.h"
#include "io/input_files.h"
#include "io/jsonl_encoder.h"
#include "io/jsonl_parser.h"
#include "io/parquet_ranges.h"
#include "io/parquet_schemas.h"
#include "io/shard_output.h"
#include "pipeline/global_passes.h"
#include "pipeline/megatron_encoder.h"
#include "pipeline/output_layout.h"
#include "pipeline/pass_runner.h"
#include "pipeline/progress_display.h"
#include "pipeline/record_projection.h"
#include "pipeline/report_html.h"
#include "pipeline/resources.h"
#include "pipeline/shard_plan.h"
#include "pipeline/shard_source.h"
#include "pipeline/shard_writer.h"
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
  RecordFields record_fields;
};

// What report.html shows of the writing pass besides counts: the picture sample, the clips'
// timelines, the parameters each stage was given, and the dedup steps' near-duplicate pairs.
void add_report_samples(RunReport& report, const ShardWriter& writer, const PipelineConfig& config,
                        const std::vector<BuiltStage>& stages) {
  report.pictures = writer.pictures().items();
  report.timelines = writer.timelines().timelines();
  for (const StageConfig& stage : config.stages) {
    report.stage_settings[stage.name] = stage.params.given_text();
  }
  for (const BuiltStage& built : stages) {
    if (GlobalStep* step = built.stage->global_step()) {
      for (ReportPair& pair : step->report_pairs()) {
        pair.step = built.name;
        report.pairs.push_back(std::move(pair));
      }
    }
  }
  report.report_max_bytes = config.report_max_bytes;
}

// One execution of a pipeline: plans it, runs its passes, reports.
class PipelineRun {
 public:
  PipelineRun(const PipelineConfig& config, const RunOptions& options)
      : config_(config),
        options_(options),
        comm_(options.comm ? *options.comm : dist::local_comm()),
        leader_(comm_.rank() == 0) {}

  RunReport execute();

 private:
  Status resolve_resources();
  // Batches stored between passes: this rank's own folder under OUT/_work/.
  std::string rank_work_dir() const {
    return comm_.size() == 1 ? layout_->work_dir()
                             : fmt::format("{}/rank-{}", layout_->work_dir(), comm_.rank());
  }
  Status choose_inputs();   // what to read and where to write: a bad path is a setup error
  Status prepare_output();  // the output folder and the shards done by an earlier run
  Status build_stages();
  std::vector<PassStage> pass_stages() const;
  Status run_global_passes_first();
  Status run_writing_pass();
  void report_steps();
  void merge_rank_counts();
  void merge_rank_step_times();

  const PipelineConfig& config_;
  const RunOptions& options_;
  // The ranks of the run (dist/comm.h); rank 0, the leader, prepares the output folder and
  // writes stats.json and report.html.
  dist::Comm& comm_;
  const bool leader_;
  RunReport report_;
  // plan
  std::vector<InputFile> inputs_;
  // Which shards this rank reads, pass by pass (pipeline/shard_plan.h).
  std::unique_ptr<ShardPlan> shard_plan_;
  std::unique_ptr<OutputLayout> layout_;
  std::vector<uint32_t> pending_shards_;  // every rank's: no marker yet (as rank 0 saw them)
  OutputFormat format_;
  std::optional<TableColumns> parquet_columns_;  // the Parquet inputs' (io/parquet_schemas.h)
  OnError on_error_ = OnError::kFail;
  uint64_t batch_size_ = 0;
  int threads_ = 1;
  bool fuse_ = true;
  ResourceBudget budget_;
  AutoscaleSettings autoscale_;
  std::vector<StageResources> stage_resources_;  // per config stage, after a GPU fallback
  // stages
  ReasonTable reasons_;
  std::vector<BuiltStage> stages_;
  std::unique_ptr<JsonlParser> parser_;
  std::unique_ptr<JsonlEncoder> encoder_;
  std::unique_ptr<MegatronEncoder> token_encoder_;  // output.format: megatron
  // the passes: what the identify passes left (where the writing pass begins), the writing pass
  GlobalPassOutcome global_;
  std::unique_ptr<PassRunner> pass_;
};

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
  report_.gpus = budget_.gpus;
  fuse_ = options_.fuse.value_or(config_.fuse);
  report_.fused = fuse_;
  for (const StageConfig& sc : config_.stages) {
    const StageResources declared =
        sc.spec->resources_for ? sc.spec->resources_for(sc.params) : sc.spec->resources;
    auto needs = resolve_stage_resources(sc.name, declared, budget_);
    if (!needs.is_ok()) return needs.status();
    stage_resources_.push_back(*needs);
  }
  return Status::ok();
}

Status PipelineRun::choose_inputs() {
  format_ = config_.output_format;
  if (options_.output_format) {
    auto chosen = format_.with_name(*options_.output_format);
    if (!chosen) return Status::errorf("unknown output format '{}'", *options_.output_format);
    format_ = *chosen;
  }
  on_error_ = options_.on_error.value_or(config_.on_error);
  batch_size_ = options_.batch_size.value_or(config_.batch_size);
  if (format_.megatron_tokens()) {
    // Token ids are for documents: a run whose output is media items has no text to give.
    if (config_.output_kind() != ItemKind::kDocument) {
      return Status::errorf(
          "output.format megatron writes documents' token ids; this pipeline "
          "outputs {} items",
          item_kind_name(config_.output_kind()));
    }
    auto loaded = MegatronEncoder::load(format_.megatron);
    if (!loaded.is_ok()) return loaded.status();
    token_encoder_ = std::move(loaded).value();
    format_.megatron.dtype = token_encoder_->dtype();
  }
  // Under megatron the kept rows are the token encoder's; rejected rows and errors stay JSONL.
  encoder_ = std::make_unique<JsonlEncoder>(
      EncodeOptions{config_.text_field, config_.id_field, config_.write_rejected,
                    !format_.megatron_tokens()},
      reasons_);

  auto inputs = discover_inputs(options_.inputs.empty() ? config_.input_paths : options_.inputs,
                                config_.input_files());
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
  std::vector<std::string> parquet_inputs;
  for (const auto& input : inputs_) {
    if (InputReader::format_of(input.path, config_.input_format) == InputFormat::kParquet) {
      parquet_inputs.push_back(input.path);
    }
  }
  auto parquet_columns = shared_parquet_columns(parquet_inputs, config_.union_schemas);
  if (!parquet_columns.is_ok()) return parquet_columns.status();
  parquet_columns_ = std::move(parquet_columns).value();
  if (format_.parquet() && parquet_columns_) {
    WINNOW_RETURN_IF_ERROR(check_parquet_output_columns(*parquet_columns_, parquet_inputs));
  }
  report_.input_files = inputs_.size();
  // From here on a shard is a file or a range of a large Parquet file's row groups.
  auto shards = split_parquet_inputs(
      inputs_,
      [&, parquet = std::set<std::string>(parquet_inputs.begin(), parquet_inputs.end())](
          const InputFile& input) { return parquet.count(input.path) > 0; },
      config_.text_field, static_cast<uint64_t>(config_.parquet_split_mb * (1 << 20)));
  if (!shards.is_ok()) return shards.status();
  inputs_ = std::move(shards).value();
  if (inputs_.size() > DocKey::kMaxShard) return Status::error("too many input shards");
  report_.input_shards = inputs_.size();
  std::vector<uint64_t> sizes;
  for (const InputFile& input : inputs_) sizes.push_back(input.size);
  shard_plan_ = std::make_unique<ShardPlan>(comm_, std::move(sizes));
  report_.ranks = comm_.size();

  // The fingerprint covers the input list too: resuming over other inputs would mix outputs.
  std::string input_list;
  for (const auto& input : inputs_) {
    input_list += input.path;
    if (input.rows) input_list += fmt::format(" rows {}-{}", input.rows->begin, input.rows->end);
    input_list += "\n";
  }
  report_.fingerprint = fmt::format("{}-{:016x}-{}", config_.fingerprint, hash64(input_list),
                                    compression_name(format_.compression));
  if (format_.parquet()) {
    report_.fingerprint += fmt::format("-parquet-{}-{}", parquet_codec_name(format_.parquet_codec),
                                       format_.row_group_rows);
  }
  return Status::ok();
}

Status PipelineRun::prepare_output() {
  const std::string& output = report_.output_dir;
  std::error_code ec;
  layout_ = std::make_unique<OutputLayout>(output, inputs_, format_);
  // --overwrite recomputes every global step's result, except under `dedup remove`, which
  // reads this pipeline's (pipeline/global_passes.h): those stay.
  std::set<std::string> keep_global;
  if (options_.passes == PassMode::kRemoveOnly) {
    for (const BuiltStage& built : stages_) {
      if (built.stage->global_step()) keep_global.insert(built.name);
    }
  }
  // The folder is shared by the ranks: one prepares it, the others wait for it.
  WINNOW_RETURN_IF_ERROR(dist::agree(
      comm_, leader_ ? layout_->prepare(options_.overwrite, keep_global) : Status::ok()));

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
  // Rank 0 decides which shards are still to write, for every rank: a rank that looked later
  // could see the marker of a shard another has finished in this very run.
  std::string pending_list;
  Status checked;
  if (leader_) {
    for (uint32_t i = 0; i < inputs_.size() && checked.is_ok(); ++i) {
      const std::string& marker_path = layout_->shard(i).marker;
      if (std::filesystem::exists(marker_path)) {
        auto marker = CompletionMarker::read(marker_path);
        if (!marker.is_ok()) {
          checked = marker.status();
          break;
        }
        report_.totals.merge(marker->counts);
        ++report_.skipped_files;
      } else {
        pending_list += std::to_string(i) + " ";
      }
    }
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(comm_, checked));
  std::string_view list = pending_list;
  std::string shared_list = dist::from_rank0(comm_, list);
  for (std::string_view rest = shared_list; !rest.empty();) {
    size_t space = rest.find(' ');
    uint32_t shard = 0;
    std::from_chars(rest.data(), rest.data() + space, shard);
    pending_shards_.push_back(shard);
    rest.remove_prefix(space + 1);
  }
  return Status::ok();
}

Status PipelineRun::build_stages() {
  parser_ = std::make_unique<JsonlParser>(ParseOptions{config_.text_field, config_.id_field});
  int index = 0;
  for (const StageConfig& sc : config_.stages) {
    StageContext context(reasons_, sc.name, index, config_.seed);
    context.set_gpus(static_cast<int>(budget_.gpus));
    // choose_inputs() has not run yet: the policy the stage sees is decided the same way.
    context.set_skip_errors(options_.on_error.value_or(config_.on_error) == OnError::kSkip);
    auto stage = sc.spec->make(sc.params, context);
    if (!stage.is_ok()) return stage.status();  // StageParams::error names file, line and stage
    stages_.push_back({sc.name, sc.spec->name, sc.workers, std::move(stage).value(),
                       stage_resources_.at(index), record_fields_of(sc)});
    ++index;
  }
  return Status::ok();
}

std::vector<PassStage> PipelineRun::pass_stages() const {
  std::vector<PassStage> out;
  for (const BuiltStage& built : stages_) {
    out.push_back({built.name, built.stage.get(),
                   FusionCandidate{built.name, built.resources, built.workers,
                                   built.stage->global_step() != nullptr},
                   built.record_fields});
  }
  return out;
}

// The writing pass, every shard not complete yet: read → parse → every stage → encode → write,
// or, when the identify passes stored their batches, from those on: read them back → the stages
// after the point they were stored at → encode → write.
Status PipelineRun::run_writing_pass() {
  auto begin = options_.clock->now();
  const PassOrigin& origin = global_.writing_origin;
  InputOptions input = config_.input_options(batch_size_);
  if (origin.stored()) input.format = InputFormat::kStored;
  ShardSource source(*origin.files, shard_plan_->queue_for(pending_shards_), input,
                     *options_.clock);
  ShardWriter writer(
      *layout_, inputs_, reasons_, source,
      {format_, config_.compression_level, config_.max_file_bytes, config_.max_tar_bytes,
       report_.fingerprint, config_.input_kind, config_.text_field, config_.id_field,
       config_.input_format, parquet_columns_, {}, config_.report_pictures_per_reason,
       config_.seed});
  std::vector<PassStep> steps =
      leading_steps(origin, *parser_, inputs_, on_error_, pass_stages(), stages_.size());
  steps.push_back(plain_step({"encode",
                              [this](DocBatch& batch) {
                                encoder_->encode(batch, inputs_[batch.shard].path,
                                                 layout_->shard(batch.shard).name);
                                if (token_encoder_) return token_encoder_->encode_kept(batch);
                                return Status::ok();
                              },
                              {},
                              {}}));
  steps.push_back(plain_step(writer.write_part()));

  PassSettings settings;
  settings.budget = budget_;
  settings.autoscale = autoscale_;
  settings.threads = threads_;
  settings.fuse = fuse_;
  settings.stop_requested = options_.stop_requested;
  settings.interrupted_message =
      "interrupted: shards finished so far are complete; run again to resume the rest";
  if (leader_) settings.metrics_path = layout_->metrics_path();
  settings.documents_done = [&writer] { return writer.documents_written(); };
  settings.clock = options_.clock;
  pass_ = std::make_unique<PassRunner>(source, std::move(steps), settings);
  writer.set_compression_threads({pass_->cpu_allowance(), threads_});

  std::unique_ptr<ProgressDisplay> progress;
  if (options_.progress && leader_) {
    std::vector<std::string> names;
    for (const StageGroup& group : pass_->groups()) names.push_back(group.name);
    progress = std::make_unique<ProgressDisplay>(source.total_compressed_bytes(), std::move(names),
                                                 ProgressDisplay::stderr_is_terminal());
    // Name the pass only when there are several.
    progress->set_pass(global_.passes.empty() ? "" : "write");
    if (options_.progress_observer) progress->set_observer(options_.progress_observer);
  }
  pass_->set_progress(progress.get());
  if (options_.progress && leader_ && !options_.progress_observer && origin.stored()) {
    std::fprintf(stderr, "winnow: write: reading %s\n", origin.name.c_str());
  }
  Status status = pass_->run();
  // Unfinished shards (a failed run) drop their outputs: temporary files are removed.
  if (!status.is_ok()) writer.abandon();
  report_.totals.merge(writer.completed_counts());
  report_.completed_files = writer.completed_shards();
  // The report's examples, with the file (relative to the output folder) that holds each.
  auto relative = [this](const std::string& path) {
    return std::filesystem::path(path).lexically_relative(layout_->dir()).string();
  };
  for (const auto& [reason, examples] : writer.examples().dropped()) {
    for (const DropExample& e : examples) {
      std::string file =
          config_.write_rejected ? relative(layout_->shard(e.shard).rejected) : std::string();
      report_.examples.push_back({reason, e.id, e.excerpt, file, e.score});
    }
  }
  for (const auto& [kind, examples] : writer.examples().errors()) {
    for (const DropExample& e : examples) {
      report_.examples.push_back({kind, "", e.excerpt, relative(layout_->shard(e.shard).errors),
                                  std::numeric_limits<double>::quiet_NaN()});
    }
  }
  add_report_samples(report_, writer, config_, stages_);
  PassRecord record{"write", origin.name, false,
                    options_.clock->seconds_since(begin), pass_->part_totals()};
  record.input_bytes = source.input_bytes_read();
  report_.passes.push_back(std::move(record));
  return status;
}

// Global steps (dedup) need an identify pass over the whole input before the writing pass
// can remove anything; pipeline/global_passes.cpp runs those passes.
Status PipelineRun::run_global_passes_first() {
  global_.writing_origin = {&inputs_, config_.input_format, 0, "the input"};
  GlobalPassPlan plan;
  plan.stages = pass_stages();
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
  plan.fuse = fuse_;
  plan.budget = budget_;
  plan.autoscale = autoscale_;
  plan.output_dir = layout_->dir();
  plan.threads = threads_;
  plan.batch_size = batch_size_;
  plan.on_error = on_error_;
  plan.materialize = config_.materialize;
  plan.work_dir = rank_work_dir();
  plan.shards = shard_plan_.get();
  plan.comm = &comm_;
  Status status = run_global_passes(plan, global_);
  report_.global_steps = global_.summaries;
  report_.passes = global_.passes;
  return status;
}

// The per-step table: read, parse, the stages, encode, write, as the pass's groups ran them.
void PipelineRun::report_steps() {
  std::vector<StepTiming> timings;
  const std::string input_kind(item_kind_name(config_.input_kind));
  timings.push_back({"read", "read", input_kind, input_kind, 0, nullptr, nullptr});
  timings.push_back({"parse", "parse", input_kind, input_kind, 0, nullptr, nullptr});
  for (size_t i = 0; i < stages_.size(); ++i) {
    const StageConfig& sc = config_.stages[i];
    timings.push_back({stages_[i].name, stages_[i].type, std::string(item_kind_name(sc.kind_in)),
                       std::string(item_kind_name(sc.kind_out)), 0, nullptr, nullptr});
  }
  const std::string output_kind(item_kind_name(config_.output_kind()));
  timings.push_back({"encode", "encode", output_kind, output_kind, 0, nullptr, nullptr});
  timings.push_back({"write", "write", output_kind, output_kind, 0, nullptr, nullptr});

  std::vector<StepSummary> summaries;
  const RunMonitor* monitor = pass_ ? pass_->monitor() : nullptr;
  if (monitor) {
    summaries = monitor->summaries();
    report_.samples = monitor->history();
    report_.autoscale_cycles = monitor->cycles();
  }
  // The writing pass's parts are read, [parse], the stages from where it began, encode, write:
  // part p of the pass is timing timing_of[p].
  std::vector<size_t> timing_of;
  if (pass_) {
    const PassOrigin& origin = global_.writing_origin;
    timing_of.push_back(0);
    if (!origin.stored()) timing_of.push_back(1);
    for (size_t i = origin.first_stage; i < stages_.size(); ++i) timing_of.push_back(2 + i);
    timing_of.push_back(2 + stages_.size());
    timing_of.push_back(3 + stages_.size());
  }
  // Runner g ran group g's parts. A fused group's members report their own part of the step's
  // metrics and summary.
  const size_t ran = pass_ ? pass_->runner_count() : 0;
  for (size_t g = 0; g < ran; ++g) {
    const StageRunner& runner = pass_->runner(g);
    const StageGroup& group = pass_->groups()[g];
    const StepSummary* summary = g < summaries.size() ? &summaries[g] : nullptr;
    for (size_t k = 0; k < runner.parts(); ++k) {
      StepTiming& timing = timings.at(timing_of.at(group.first + k));
      timing.workers = runner.target_workers();
      timing.metrics = &runner.part_metrics(k);
      if (summary) timing.summary = runner.parts() > 1 ? &summary->parts.at(k) : summary;
    }
  }
  report_.steps = derive_steps(report_.totals, timings);
  // Every pass's work counts: the identify passes ran read, parse and the stages before their
  // global step too (and with stored batches, the writing pass did not run those again).
  for (const PassRecord& record : report_.passes) {
    if (record.name == "write") continue;  // the timings above
    for (const PartTotal& part : record.parts) {
      for (StepReport& step : report_.steps) {
        if (step.name != part.name) continue;
        step.busy_seconds += part.busy_ns / 1e9;
        step.batches += part.batches;
      }
    }
  }
  for (size_t i = 0; i < stages_.size(); ++i) {
    report_.steps.at(i + 2).resources = stages_[i].resources;
    report_.steps.at(i + 2).pinned = stages_[i].workers > 0;
  }
  if (!pass_) return;
  for (const StageGroup& group : pass_->groups()) report_.executor_steps.push_back(group.name);
  for (size_t g = 0; g < pass_->groups().size(); ++g) {
    const StageGroup& group = pass_->groups()[g];
    if (!group.fused()) continue;
    FusedGroupReport fused;
    fused.name = group.name;
    for (size_t k = 0; k < group.count; ++k) fused.members.push_back(timing_of.at(group.first + k));
    if (g < ran) {
      const StageRunner& runner = pass_->runner(g);
      fused.workers = runner.target_workers();
      fused.batches = runner.metrics().batches.load();
      fused.busy_seconds = runner.metrics().busy_ns.load() / 1e9;
      if (g < summaries.size()) {
        fused.summary = summaries[g];
        fused.summary.parts.clear();
      }
    }
    for (size_t k : fused.members) {
      if (k < report_.steps.size()) report_.steps[k].fused_group = group.name;
    }
    report_.fused_groups.push_back(std::move(fused));
  }
}

RunReport PipelineRun::execute() {
  auto begin = options_.clock->now();
  // Stages first: a bad parameter must fail before the output folder is touched.
  Status status = resolve_resources();
  if (status.is_ok()) status = build_stages();
  if (status.is_ok()) status = choose_inputs();
  status = dist::agree(comm_, status);
  if (status.is_ok()) status = dist::agree(comm_, prepare_output());
  // A refusal to start (a bad stage parameter, no input, an output folder another pipeline
  // made): nothing ran, so the command exits 2 without a summary of zeros.
  report_.setup_failed = !status.is_ok();
  bool planned = status.is_ok();
  if (status.is_ok()) status = run_global_passes_first();
  report_.identify_only = options_.passes == PassMode::kIdentifyOnly;
  if (status.is_ok() && options_.passes != PassMode::kIdentifyOnly) status = run_writing_pass();
  status = dist::agree(comm_, status);
  // What the passes stored for each other is of no use once the run has ended.
  global_.stored.reset();
  if (planned) {
    std::error_code ec;
    std::filesystem::remove_all(rank_work_dir(), ec);
    if (comm_.size() > 1) {
      comm_.barrier();
      if (leader_) std::filesystem::remove_all(layout_->work_dir(), ec);
    }
  }
  report_.status = status;
  report_.stopped = !status.is_ok() && options_.stop_requested && options_.stop_requested->load();
  report_.elapsed_seconds =
      options_.clock->seconds_since(begin);
  if (planned && comm_.size() > 1) merge_rank_counts();
  report_steps();
  if (planned && comm_.size() > 1) merge_rank_step_times();
  // A run refused at planning (say, over another pipeline's output) leaves that output's
  // stats.json alone.
  if (planned && leader_) {
    Status written = write_stats_json(report_, layout_->stats_path());
    if (report_.status.is_ok() && !written.is_ok()) report_.status = written;
    written = write_report_html(report_, layout_->report_path());
    if (report_.status.is_ok() && !written.is_ok()) report_.status = written;
    if (config_.input_kind == ItemKind::kVideo) {
      written = write_video_summary(report_, layout_->summary_path());
      if (report_.status.is_ok() && !written.is_ok()) report_.status = written;
    }
  }
  return report_;
}

// Across ranks, the report is the whole job's: the counts of every shard complete (read back
// from the markers, which hold each shard's counts), and the files and step times summed over
// the ranks. The drop examples and the charts stay rank 0's own.
void PipelineRun::merge_rank_counts() {
  std::vector<uint64_t> sums =
      dist::sum_over_ranks(comm_, {report_.completed_files, report_.skipped_files});
  report_.completed_files = sums[0];
  report_.skipped_files = sums[1];
  if (!leader_) return;
  RunCounts totals;
  for (uint32_t i = 0; i < inputs_.size(); ++i) {
    const std::string& marker_path = layout_->shard(i).marker;
    if (!std::filesystem::exists(marker_path)) continue;
    auto marker = CompletionMarker::read(marker_path);
    if (!marker.is_ok()) {
      if (report_.status.is_ok()) report_.status = marker.status();
      continue;
    }
    totals.merge(marker->counts);
  }
  report_.totals = std::move(totals);
}

void PipelineRun::merge_rank_step_times() {
  std::vector<uint64_t> own;
  for (const StepReport& step : report_.steps) {
    own.push_back(static_cast<uint64_t>(step.busy_seconds * 1e9));
    own.push_back(step.batches);
  }
  std::vector<uint64_t> sums = dist::sum_over_ranks(comm_, own);
  for (size_t i = 0; i < report_.steps.size(); ++i) {
    report_.steps[i].busy_seconds = sums[2 * i] / 1e9;
    report_.steps[i].batches = sums[2 * i + 1];
  }
}

}  // namespace

RunReport run_pipeline(const PipelineConfig& config, const RunOptions& options) {
  PipelineRun run(config, options);
  return run.execute();
}

}  // namespace winnow
