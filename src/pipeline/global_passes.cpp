#include "pipeline/global_passes.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <numeric>
#include <set>
#include <sstream>
#include <thread>

#include "core/hash.h"
#include "core/json_text.h"
#include "io/atomic_file.h"
#include "io/input_reader.h"
#include "io/output_names.h"
#include "pipeline/pass_runner.h"
#include "pipeline/progress_display.h"
#include "pipeline/record_projection.h"
#include "pipeline/shard_source.h"
#include "pipeline/step_parts.h"

namespace winnow {

namespace fs = std::filesystem;

namespace {

// The stages a pass from `origin` up to stage `to` would run again, by name (with `parse` when it
// reads the input): what storing before `to` saves the passes after it.
std::vector<std::string> costly_parts(const GlobalPassPlan& plan, const PassOrigin& origin,
                                      size_t to) {
  std::vector<std::string> names;
  if (!origin.stored()) names.push_back("parse");
  for (size_t i = origin.first_stage; i < to; ++i) {
    if (!plan.stages[i].stage->global_step()) names.push_back(plan.stages[i].name);
  }
  return names;
}

// One identify pass: from `origin` (the input, or stored batches) → the stages up to the global
// one → identify (observe) → [store] → let go, on the same harness as the writing pass
// (pipeline/pass_runner.h); nothing is encoded or written. It reads every shard (also those an
// earlier run completed), so the decision never depends on how a run was interrupted.
// `columns`: the pass's projection of Parquet inputs (nullopt: every column).
Status run_identify_pass(const GlobalPassPlan& plan, const PassOrigin& origin, size_t global_index,
                         GlobalStep& step, BatchStore* store,
                         std::optional<std::vector<std::string>> columns, PassRecord& record) {
  auto begin = plan.options->clock->now();
  // Every shard (also those an earlier run completed): the first pass takes them from the
  // ranks' shared queue, later ones read what this rank read then.
  std::vector<uint32_t> every_shard(plan.inputs->size());
  std::iota(every_shard.begin(), every_shard.end(), 0u);
  InputOptions input = plan.config->input_options(plan.batch_size);
  if (origin.stored()) input.format = InputFormat::kStored;
  input.parquet.columns = columns;
  record.columns = std::move(columns);
  ShardSource source(*origin.files, plan.shards->queue_for(every_shard), input,
                     *plan.options->clock);
  std::vector<PassStep> steps = leading_steps(origin, *plan.parser, *plan.inputs, plan.on_error,
                                              plan.stages, global_index);
  steps.push_back(plain_step(
      {"identify", [&step](DocBatch& batch) { return step.observe(batch); }, {}, {}}));
  if (store) steps.push_back(plain_step(store->store_part()));
  steps.push_back(plain_step({"release", {}, {}, [&source](BatchPtr) {
                                source.batch_done();
                                return Status::ok();
                              }}));
  PassSettings settings;
  settings.budget = plan.budget;
  settings.autoscale = plan.autoscale;
  settings.threads = std::max(1, plan.threads);
  settings.fuse = plan.fuse;
  settings.stop_requested = plan.options->stop_requested;
  settings.interrupted_message = "interrupted during an identify pass; run again to resume";
  settings.clock = plan.options->clock;
  PassRunner pass(source, std::move(steps), settings);
  if (store) {
    // `auto` weighs what this pass's stages before the point cost against storing.
    store->measure_upstream_with(
        [&pass, names = costly_parts(plan, origin, global_index)] {
          return pass.busy_ns_of(names);
        });
  }

  // On a terminal the pass shows its progress like the writing pass; off one, a log line says
  // what the wait is for and the display writes its plain lines.
  std::unique_ptr<ProgressDisplay> progress;
  if (plan.options->progress) {
    if (!plan.options->progress_observer) {
      std::fprintf(stderr, "winnow: %s: reading %s (%zu files)\n", record.name.c_str(),
                   origin.name.c_str(), origin.files->size());
    }
    std::vector<std::string> names;
    for (const StageGroup& group : pass.groups()) names.push_back(group.name);
    progress = std::make_unique<ProgressDisplay>(source.total_compressed_bytes(), std::move(names),
                                                 ProgressDisplay::stderr_is_terminal());
    progress->set_pass(record.name);
    if (plan.options->progress_observer) progress->set_observer(plan.options->progress_observer);
    pass.set_progress(progress.get());
  }
  Status status = pass.run();
  plan.shards->pass_read(source.shards_read());
  if (store) store->measure_upstream_with({});  // the pass is gone
  record.origin = origin.name;
  record.parts = pass.part_totals();
  record.input_bytes = source.input_bytes_read();
  record.seconds =
      plan.options->clock->seconds_since(begin);
  return status;
}

std::string read_marker_fingerprint(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  // The marker is {"fingerprint": "..."}; a string compare is enough to check it.
  size_t key = s.find("\"fingerprint\"");
  if (key == std::string::npos) return {};
  size_t open = s.find('"', s.find(':', key));
  size_t close = s.find('"', open + 1);
  if (open == std::string::npos || close == std::string::npos) return {};
  return s.substr(open + 1, close - open - 1);
}

Status reset_folder(const std::string& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (ec) return Status::errorf("cannot remove {}: {}", dir, ec.message());
  fs::create_directories(dir, ec);
  if (ec) return Status::errorf("cannot create {}: {}", dir, ec.message());
  return Status::ok();
}

std::string global_dir(const GlobalPassPlan& plan) {
  return plan.output_dir + "/" + std::string(output_names::kGlobalDir);
}

}  // namespace

bool has_global_steps(const std::vector<PassStage>& stages) {
  return std::any_of(stages.begin(), stages.end(),
                     [](const PassStage& s) { return s.stage->global_step() != nullptr; });
}

namespace {

// What every global step's identify pass shares: the ranks, the fingerprint base, the mode.
struct PassContext {
  const GlobalPassPlan& plan;
  dist::Comm& comm;
  bool leader = false;  // rank 0 prepares and marks the shared result folders
  std::string base;     // fingerprint of the stages, parameters, seed, fields and input set
  bool parquet_input = false;
  std::vector<size_t> global_indices;
};

PassContext pass_context(const GlobalPassPlan& plan) {
  dist::Comm& comm = plan.comm ? *plan.comm : dist::local_comm();
  PassContext context{plan, comm, comm.rank() == 0, {}, false, {}};
  // The result depends on the stages, their parameters, the seed, the input fields and the
  // input set, not on the output format, threads or batch size.
  std::string input_list;
  for (const auto& input : *plan.inputs) input_list += input.path + "\n";
  context.base = fmt::format("{}-{:016x}", plan.config->fingerprint, hash64(input_list));
  // Projection is for Parquet inputs only: other formats are read whole whatever a pass needs.
  context.parquet_input =
      plan.config->project_columns &&
      std::any_of(plan.inputs->begin(), plan.inputs->end(), [&](const InputFile& input) {
        return InputReader::format_of(input.path, plan.config->input_format) ==
               InputFormat::kParquet;
      });
  for (size_t i = 0; i < plan.stages.size(); ++i) {
    if (plan.stages[i].stage->global_step()) context.global_indices.push_back(i);
  }
  return context;
}

// Store before this step when a pass comes after this one (the next identify pass, or the
// writing pass) and this pass runs stages that are worth not running again. Under `auto`, a
// pass that runs no stage before the step and can read a projection reads the projection
// instead: storing would save the next passes only parsing, at the price of reading (and
// storing) every column now.
std::unique_ptr<BatchStore> store_for(const PassContext& context, const PassOrigin& origin,
                                      size_t index, bool has_projection) {
  const GlobalPassPlan& plan = context.plan;
  const bool pass_follows = plan.options->passes != PassMode::kIdentifyOnly ||
                            index != context.global_indices.back();
  const std::vector<std::string> costly = costly_parts(plan, origin, index);
  const bool parse_only = costly.size() == 1 && costly.front() == "parse";
  const bool project_instead =
      plan.materialize == MaterializeMode::kAuto && parse_only && has_projection;
  if (plan.materialize == MaterializeMode::kNever || !pass_follows || costly.empty() ||
      project_instead) {
    return nullptr;
  }
  const std::string& name = plan.stages[index].name;
  return std::make_unique<BatchStore>(plan.work_dir + "/" + name, plan.inputs->size(), index,
                                      "'" + name + "'", plan.materialize);
}

// The identify passes of one step (a step may ask for more than one) and its finish, on every
// rank; the first pass may store its batches in `store`.
Status identify_passes(const PassContext& context, const PassOrigin& origin, size_t index,
                       GlobalStep& step, BatchStore* store,
                       const std::optional<std::vector<std::string>>& columns,
                       GlobalPassOutcome& outcome) {
  const std::string& name = context.plan.stages[index].name;
  Status status;
  int pass_number = 0;
  PassOrigin pass_origin = origin;
  do {
    PassRecord record;
    record.name = fmt::format("identify {}{}", name,
                              pass_number > 0 ? fmt::format(" (pass {})", pass_number + 1) : "");
    BatchStore* storing = pass_number == 0 ? store : nullptr;
    record.stored = storing != nullptr;
    // Batches that outlive the pass (stored) keep every column; so does a stored origin.
    std::optional<std::vector<std::string>> pass_columns;
    if (!storing && !pass_origin.stored()) pass_columns = columns;
    status = run_identify_pass(context.plan, pass_origin, index, step, storing, pass_columns,
                               record);
    if (status.is_ok() && storing) {
      status = storing->commit();
      record.stored = storing->usable();
      // A further pass over the same documents begins from what this one stored.
      if (status.is_ok() && storing->usable()) pass_origin = storing->origin();
    }
    // Every rank learns of a failure on any before the step's collective work.
    status = dist::agree(context.comm, status);
    outcome.passes.push_back(std::move(record));
    ++pass_number;
  } while (status.is_ok() && step.another_pass());
  if (status.is_ok()) status = dist::agree(context.comm, step.finish_identify());
  return status;
}

// The step's finish from its checkpoint, without reading the input (GlobalStep::
// resume_identify); the pass record says so.
Status resumed_identify(const PassContext& context, size_t index, GlobalStep& step,
                        GlobalPassOutcome& outcome) {
  PassRecord record;
  record.name = fmt::format("identify {} (resumed from its checkpoint)", context.plan.stages[index].name);
  outcome.passes.push_back(std::move(record));
  return dist::agree(context.comm, step.finish_identify());
}

// Spill folders gone on every rank, then the marker that says the result is whole.
Status mark_complete(const PassContext& context, const std::string& dir,
                     const std::string& fingerprint, const std::string& name) {
  std::error_code ec;
  if (context.comm.size() > 1) {
    context.comm.barrier();  // every rank's spill folder is gone
    if (context.leader) fs::remove_all(dir + "/_spill", ec);
  }
  JsonWriter out(true);
  out.begin_object();
  out.key("fingerprint").value(fingerprint);
  out.key("stage").value(name);
  out.end_object();
  return dist::agree(context.comm,
                     context.leader
                         ? AtomicFile::write_whole(dir + "/_complete.json", out.take() + "\n")
                         : Status::ok());
}

// Where a step keeps its checkpoint: outside its result folder, which each attempt empties.
std::string checkpoint_dir(const GlobalPassPlan& plan, const std::string& name) {
  return global_dir(plan) + "/_checkpoints/" + name;
}

// Computes one global step's result (identify passes, finish, marker) into `dir`.
Status compute_step(const PassContext& context, PassOrigin& origin,
                    std::unique_ptr<BatchStore>& stored, size_t index,
                    const std::string& fingerprint, GlobalPassOutcome& outcome) {
  const GlobalPassPlan& plan = context.plan;
  GlobalStep& step = *plan.stages[index].stage->global_step();
  const std::string& name = plan.stages[index].name;
  const std::string dir = global_dir(plan) + "/" + name;
  WINNOW_RETURN_IF_ERROR(
      dist::agree(context.comm, context.leader ? reset_folder(dir) : Status::ok()));
  // Each rank spills apart.
  const std::string spill_dir = context.comm.size() == 1
                                    ? dir + "/_spill"
                                    : fmt::format("{}/_spill/rank-{}", dir, context.comm.rank());
  GlobalStepContext step_context{dir, spill_dir, std::max(1, plan.threads), {}, plan.comm};
  for (const InputFile& input : *plan.inputs) step_context.input_paths.push_back(input.path);
  step_context.checkpoint_dir = checkpoint_dir(plan, name);
  step_context.fingerprint = fingerprint;
  WINNOW_RETURN_IF_ERROR(step.begin_identify(step_context));
  if (step.resume_identify()) {
    Status status = resumed_identify(context, index, step, outcome);
    std::error_code ec;
    fs::remove_all(step_context.spill_dir, ec);
    WINNOW_RETURN_IF_ERROR(status);
    WINNOW_RETURN_IF_ERROR(mark_complete(context, dir, fingerprint, name));
    if (context.leader) fs::remove_all(step_context.checkpoint_dir, ec);
    return Status::ok();
  }
  // The Parquet columns a pass from the input needs, when its stages say which.
  std::optional<std::vector<std::string>> columns;
  if (context.parquet_input) {
    columns = projected_columns(plan.stages, 0, index, plan.config->text_field,
                                plan.config->id_field);
  }
  std::unique_ptr<BatchStore> store = store_for(context, origin, index, columns.has_value());
  Status status = identify_passes(context, origin, index, step, store.get(), columns, outcome);
  std::error_code ec;
  fs::remove_all(step_context.spill_dir, ec);
  WINNOW_RETURN_IF_ERROR(status);
  WINNOW_RETURN_IF_ERROR(mark_complete(context, dir, fingerprint, name));
  // The result is whole: a checkpoint of how it was reached is no longer needed.
  if (context.leader) fs::remove_all(step_context.checkpoint_dir, ec);
  if (store && store->usable()) {
    // The next pass begins here; what was stored before is no longer needed.
    origin = store->origin();
    stored = std::move(store);
  }
  return Status::ok();
}

}  // namespace

Status run_global_passes(const GlobalPassPlan& plan, GlobalPassOutcome& outcome) {
  const PassContext context = pass_context(plan);
  const PassMode mode = plan.options->passes;
  // --overwrite has emptied global/ already (OutputLayout::prepare), but for `dedup remove`.
  // Where the next pass begins: the input, or the batches the last storing pass left.
  PassOrigin origin{plan.inputs, plan.config->input_format, 0, "the input"};
  std::unique_ptr<BatchStore> stored;
  for (size_t index : context.global_indices) {
    GlobalStep* step = plan.stages[index].stage->global_step();
    const std::string& name = plan.stages[index].name;
    const std::string dir = global_dir(plan) + "/" + name;
    const std::string fingerprint = fmt::format("{}-{}-{}", context.base, index, name);
    auto begin = std::chrono::steady_clock::now();
    GlobalStepSummary summary;
    summary.name = name;
    // report.html's near-duplicate pairs: as many per step as pictures per reason.
    step->set_report_sample(plan.config->report_pictures_per_reason, plan.config->seed);
    // --overwrite recomputes, except for `dedup remove`, which only ever uses a result. Rank
    // 0's view of the marker decides for every rank.
    const bool reusable = mode == PassMode::kRemoveOnly || !plan.options->overwrite;
    const bool marker_matches =
        dist::from_rank0(context.comm,
                         context.leader &&
                                 read_marker_fingerprint(dir + "/_complete.json") == fingerprint
                             ? "1"
                             : "0") == "1";
    if (reusable && marker_matches) {
      WINNOW_RETURN_IF_ERROR(step->load_result(dir));
      summary.reused = true;
    } else if (mode == PassMode::kRemoveOnly) {
      return Status::errorf(
          "no complete identify result for stage '{}' of this pipeline and input set in {}; "
          "run `winnow dedup identify` first",
          name, dir);
    } else {
      WINNOW_RETURN_IF_ERROR(compute_step(context, origin, stored, index, fingerprint, outcome));
    }
    summary.json = step->summary_json();
    summary.text = step->summary_text();
    summary.html = step->summary_html();
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    outcome.summaries.push_back(std::move(summary));
  }
  outcome.writing_origin = origin;
  outcome.stored = std::move(stored);
  return Status::ok();
}

}  // namespace winnow
