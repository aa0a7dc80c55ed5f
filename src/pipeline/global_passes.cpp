#include "pipeline/global_passes.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
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
#include "pipeline/shard_source.h"
#include "pipeline/step_parts.h"

namespace winnow {

namespace fs = std::filesystem;

namespace {

// One identify pass: read → parse → the stages before the global one → identify (observe) →
// let go, on the same harness as the writing pass (pipeline/pass_runner.h); nothing is encoded
// or written. It reads every input shard (also those an earlier run completed), so the decision
// never depends on how a run was interrupted.
Status run_identify_pass(const GlobalPassPlan& plan, size_t global_index, GlobalStep& step,
                         int pass_number) {
  std::vector<uint32_t> shards(plan.inputs->size());
  for (uint32_t i = 0; i < shards.size(); ++i) shards[i] = i;
  ShardSource source(*plan.inputs, std::move(shards), plan.config->input_options(plan.batch_size));
  std::vector<PassStep> steps =
      leading_steps(*plan.parser, *plan.inputs, plan.on_error, plan.stages, global_index);
  steps.push_back(plain_step(
      {"identify", [&step](DocBatch& batch) { return step.observe(batch); }, {}, {}}));
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
  PassRunner pass(source, std::move(steps), settings);

  // On a terminal the pass shows its progress like the writing pass; off one, a log line says
  // what the wait is for and the display writes its plain lines.
  std::unique_ptr<ProgressDisplay> progress;
  if (plan.options->progress) {
    const std::string& name = plan.stages[global_index].name;
    std::fprintf(stderr, "winnow: %s: identify pass %d over all %zu input files\n", name.c_str(),
                 pass_number, plan.inputs->size());
    std::vector<std::string> names;
    for (const StageGroup& group : pass.groups()) names.push_back(group.name);
    progress = std::make_unique<ProgressDisplay>(source.total_compressed_bytes(), std::move(names),
                                                 ProgressDisplay::stderr_is_terminal());
    pass.set_progress(progress.get());
  }
  return pass.run();
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

// With --overwrite, global/ folders of stages this pipeline no longer has (renamed or removed)
// go too: winnow owns global/, and a stale result there would only mislead.
Status remove_stale_results(const GlobalPassPlan& plan) {
  std::set<std::string> current;
  for (const PassStage& stage : plan.stages) {
    if (stage.stage->global_step()) current.insert(stage.name);
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(global_dir(plan), ec)) {
    if (!entry.is_directory() || current.count(entry.path().filename().string())) continue;
    fs::remove_all(entry.path(), ec);
    if (ec) return Status::errorf("cannot remove {}: {}", entry.path().string(), ec.message());
  }
  return Status::ok();  // a missing global/ is fine
}

}  // namespace

bool has_global_steps(const std::vector<PassStage>& stages) {
  return std::any_of(stages.begin(), stages.end(),
                     [](const PassStage& s) { return s.stage->global_step() != nullptr; });
}

Status run_global_passes(const GlobalPassPlan& plan, std::vector<GlobalStepSummary>& summaries) {
  // The result depends on the stages, their parameters, the seed, the input fields and the
  // input set, not on the output format, threads or batch size.
  std::string input_list;
  for (const auto& input : *plan.inputs) input_list += input.path + "\n";
  const std::string base = fmt::format("{}-{:016x}", plan.config->fingerprint, hash64(input_list));
  const PassMode mode = plan.options->passes;
  if (plan.options->overwrite && mode != PassMode::kRemoveOnly) {
    WINNOW_RETURN_IF_ERROR(remove_stale_results(plan));
  }

  for (size_t index = 0; index < plan.stages.size(); ++index) {
    GlobalStep* step = plan.stages[index].stage->global_step();
    if (!step) continue;
    const std::string& name = plan.stages[index].name;
    const std::string dir = global_dir(plan) + "/" + name;
    const std::string marker = dir + "/_complete.json";
    const std::string fingerprint = fmt::format("{}-{}-{}", base, index, name);
    auto begin = std::chrono::steady_clock::now();
    GlobalStepSummary summary;
    summary.name = name;

    // --overwrite recomputes, except for `dedup remove`, which only ever uses a result.
    bool reusable = mode == PassMode::kRemoveOnly || !plan.options->overwrite;
    if (reusable && read_marker_fingerprint(marker) == fingerprint) {
      WINNOW_RETURN_IF_ERROR(step->load_result(dir));
      summary.reused = true;
    } else if (mode == PassMode::kRemoveOnly) {
      return Status::errorf(
          "no complete identify result for stage '{}' of this pipeline and input set in {}; "
          "run `winnow dedup identify` first",
          name, dir);
    } else {
      WINNOW_RETURN_IF_ERROR(reset_folder(dir));
      GlobalStepContext context{dir, dir + "/_spill", std::max(1, plan.threads)};
      WINNOW_RETURN_IF_ERROR(step->begin_identify(context));
      Status status;
      int pass_number = 0;
      do {
        status = run_identify_pass(plan, index, *step, ++pass_number);
      } while (status.is_ok() && step->another_pass());
      if (status.is_ok()) status = step->finish_identify();
      std::error_code ec;
      fs::remove_all(context.spill_dir, ec);
      WINNOW_RETURN_IF_ERROR(status);
      JsonWriter out(true);
      out.begin_object();
      out.key("fingerprint").value(fingerprint);
      out.key("stage").value(name);
      out.end_object();
      WINNOW_RETURN_IF_ERROR(AtomicFile::write_whole(marker, out.take() + "\n"));
    }
    summary.json = step->summary_json();
    summary.text = step->summary_text();
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    summaries.push_back(std::move(summary));
  }
  return Status::ok();
}

}  // namespace winnow
