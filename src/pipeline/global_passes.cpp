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
#include "pipeline/in_flight_limit.h"
#include "pipeline/progress_display.h"
#include "pipeline/reader_threads.h"
#include "pipeline/run_monitor.h"
#include "pipeline/stage_runner.h"
#include "pipeline/step_parts.h"

namespace winnow {

namespace fs = std::filesystem;

namespace {

// One identify pass: reader(s) -> parse -> the stages before the global one -> observe. Same
// queues, runners and memory bound as the executor, but nothing is encoded or written.
class IdentifyPass {
 public:
  IdentifyPass(const GlobalPassPlan& plan, size_t global_index, GlobalStep& step)
      : plan_(plan), global_index_(global_index), step_(step) {}

  Status run() {
    std::vector<StageRunner::Part> all;  // read, then the stages before the global one
    std::vector<FusionCandidate> candidates;
    all.push_back(parse_part(*plan_.parser, *plan_.inputs, plan_.on_error));
    candidates.push_back({"read", StageResources{}, 0, false});
    for (size_t i = 0; i < global_index_; ++i) {
      Stage* stage = plan_.stages[i].second;
      // Each worker sets its stages up first, as in the writing pass.
      all.push_back(stage_part(plan_.stages[i].first, *stage));
      FusionCandidate candidate{plan_.stages[i].first, StageResources{}, 0,
                                stage->global_step() != nullptr};
      if (i < plan_.fusion.size()) candidate = plan_.fusion[i];
      candidates.push_back(candidate);
    }
    std::vector<std::pair<std::string, std::vector<StageRunner::Part>>> steps;
    std::vector<MonitoredStep> monitored;
    bool fuse = plan_.fuse && plan_.fusion.size() == plan_.stages.size();
    for (const StageGroup& group : plan_fusion(candidates, fuse)) {
      steps.emplace_back(group.name,
                         std::vector<StageRunner::Part>(all.begin() + group.first,
                                                        all.begin() + group.first + group.count));
      const FusionCandidate& first = candidates[group.first];
      monitored.push_back({group.name, nullptr, nullptr, nullptr, first.resources, first.pinned});
    }
    auto single = [](std::string name, StageRunner::Work work) {
      std::vector<StageRunner::Part> parts;
      parts.push_back({std::move(name), std::move(work), {}});
      return parts;
    };
    steps.emplace_back(
        "identify", single("identify", [this](DocBatch& batch) { return step_.observe(batch); }));
    monitored.push_back({"identify", nullptr, nullptr, nullptr, StageResources{}, 0});

    const int threads = std::max(1, plan_.threads);
    const bool autoscale = plan_.autoscale.enabled;
    in_flight_ =
        std::make_unique<InFlightLimit>(2 * static_cast<size_t>(threads) + steps.size() + 2);
    for (size_t i = 0; i <= steps.size(); ++i) {
      queues_.push_back(std::make_unique<BatchQueue>(static_cast<size_t>(threads) + 1));
    }
    std::vector<std::unique_ptr<StageRunner>> runners;
    for (size_t i = 0; i < steps.size(); ++i) {
      runners.push_back(std::make_unique<StageRunner>(steps[i].first, std::move(steps[i].second),
                                                      *queues_[i], *queues_[i + 1],
                                                      [this](const Status& s) { fail(s); }));
    }
    std::unique_ptr<RunMonitor> monitor;
    if (autoscale) {
      // As in the writing pass: the budget held at run time, workers moved by the autoscaler
      // (no metrics.jsonl or progress of its own: the pass only prepares the global step).
      {
        std::lock_guard lock(failure_mutex_);
        pool_ = std::make_unique<ResourcePool>(plan_.budget);
      }
      for (size_t i = 0; i < runners.size(); ++i) {
        MonitoredStep& m = monitored[i];
        m.runner = runners[i].get();
        m.input = queues_[i].get();
        m.output = queues_[i + 1].get();
        runners[i]->set_resources(pool_.get(), m.needs);
        runners[i]->set_grace(std::chrono::milliseconds(plan_.autoscale.grace_ms));
        runners[i]->set_window(static_cast<size_t>(plan_.autoscale.window),
                               std::chrono::milliseconds(2 * plan_.autoscale.interval_ms));
      }
      for (size_t i = 0; i < runners.size(); ++i) {
        runners[i]->start(monitored[i].pinned > 0 ? monitored[i].pinned : 1);
      }
      monitor = std::make_unique<RunMonitor>(std::move(monitored), plan_.budget, plan_.autoscale,
                                             [] { return RunTotalsNow{}; });
      monitor->start();
    } else {
      for (auto& runner : runners) runner->start(threads);
    }
    std::thread sink([this] {
      while (auto batch = queues_.back()->pop()) in_flight_->release();
    });
    std::atomic<bool> finished{false};
    std::thread watcher([this, &finished] {
      const std::atomic<bool>* stop = plan_.options->stop_requested;
      while (!finished && stop) {
        if (stop->load()) {
          fail(Status::error("interrupted during an identify pass; run again to resume"));
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
    run_reader_threads(
        threads, plan_.inputs->size(), [this] { read_shards(); },
        [this](const Status& status) { fail(status); });
    queues_.front()->close();
    for (auto& runner : runners) runner->join();
    sink.join();
    finished = true;
    watcher.join();
    if (monitor) monitor->stop();
    std::lock_guard lock(failure_mutex_);
    return failure_;
  }

 private:
  void fail(const Status& status) {
    {
      std::lock_guard lock(failure_mutex_);
      if (failed_.exchange(true)) return;
      failure_ = status;
    }
    for (auto& queue : queues_) queue->cancel();
    in_flight_->cancel();
    if (pool_) pool_->cancel();
  }

  void read_shards() {
    // The same readers as the writing pass (JSONL or WARC), so both passes see the same keys.
    const InputOptions options = plan_.config->input_options(plan_.batch_size);
    while (!failed_) {
      size_t shard = next_shard_.fetch_add(1);
      if (shard >= plan_.inputs->size()) return;
      InputReader reader((*plan_.inputs)[shard].path, static_cast<uint32_t>(shard), options);
      while (true) {
        if (!in_flight_->acquire()) return;
        BatchPtr batch = reader.next();
        if (!batch) {
          in_flight_->release();
          break;
        }
        if (!queues_.front()->push(std::move(batch))) return;
      }
    }
  }

  const GlobalPassPlan& plan_;
  size_t global_index_;
  GlobalStep& step_;
  std::vector<std::unique_ptr<BatchQueue>> queues_;
  std::unique_ptr<InFlightLimit> in_flight_;
  std::unique_ptr<ResourcePool> pool_;  // with the autoscaler only
  std::atomic<size_t> next_shard_{0};
  std::mutex failure_mutex_;
  Status failure_;
  std::atomic<bool> failed_{false};
};

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
  for (const auto& [name, stage] : plan.stages) {
    if (stage->global_step()) current.insert(name);
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

bool has_global_steps(const std::vector<std::pair<std::string, Stage*>>& stages) {
  return std::any_of(stages.begin(), stages.end(),
                     [](const auto& s) { return s.second->global_step() != nullptr; });
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
    GlobalStep* step = plan.stages[index].second->global_step();
    if (!step) continue;
    const std::string& name = plan.stages[index].first;
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
      // Identify passes print no progress line of their own: one line each says what the wait
      // is for.
      const bool tell = plan.options->progress && ProgressDisplay::stderr_is_terminal();
      Status status;
      int pass_number = 0;
      do {
        if (tell) {
          std::fprintf(stderr, "winnow: %s: identify pass %d over all %zu input files...\n",
                       name.c_str(), ++pass_number, plan.inputs->size());
        }
        IdentifyPass pass(plan, index, *step);
        status = pass.run();
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
