#include "pipeline/run_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/json_text.h"
#include "core/version.h"
#include "io/atomic_file.h"

namespace winnow {

namespace {

// What the monitor saw of one executor step over the run (a stage, or a fused group).
void write_summary_members(JsonWriter& out, const StepSummary& sum) {
  out.key("workers_min").value(sum.workers_min);
  out.key("workers_max").value(sum.workers_max);
  out.key("scale_ups").value(sum.scale_ups);
  out.key("scale_downs").value(sum.scale_downs);
  out.key("busy_fraction").value(sum.busy_fraction);
  out.key("mean_service_ms").value(sum.mean_service_ms);
  out.key("setup_seconds").value(sum.setup_seconds);
  out.key("mean_input_fill").value(sum.mean_input_fill);
}

}  // namespace

std::vector<StepReport> derive_steps(const RunCounts& totals,
                                     const std::vector<StepTiming>& steps) {
  // The counts of one stage: its entries are "stage/entry".
  auto of_stage = [](const std::map<std::string, uint64_t>& counts, const std::string& stage,
                     std::map<std::string, uint64_t>* by_entry) {
    const std::string prefix = stage + "/";
    uint64_t total = 0;
    for (const auto& [entry, n] : counts) {
      if (entry.compare(0, prefix.size(), prefix) != 0) continue;
      total += n;
      if (by_entry) (*by_entry)[entry.substr(prefix.size())] = n;
    }
    return total;
  };
  std::vector<StepReport> out;
  uint64_t reaching = totals.documents;
  for (const StepTiming& timing : steps) {
    StepReport r;
    r.name = timing.name;
    r.type = timing.type;
    r.kind_in = timing.kind_in;
    r.kind_out = timing.kind_out;
    r.workers = timing.workers;
    if (timing.metrics) {
      r.batches = timing.metrics->batches.load();
      r.busy_seconds = timing.metrics->busy_ns.load() / 1e9;
      r.bytes_in = timing.metrics->bytes_in.load();
    }
    if (timing.summary) r.summary = *timing.summary;
    r.docs_in = reaching;
    uint64_t dropped = 0;
    if (r.type == "parse") {
      // The parse step turns bad records into errors (kinds without a stage: "stage/kind" are
      // the errors a stage met, counted at that stage).
      for (const auto& [kind, n] : totals.errors) {
        if (kind.find('/') != std::string::npos) continue;
        r.dropped[kind] = n;
        dropped += n;
      }
    } else if (r.type != "read" && r.type != "encode" && r.type != "write") {
      dropped = of_stage(totals.dropped, r.name, &r.dropped);
      dropped += of_stage(totals.errors, r.name, &r.dropped);
      r.fanned_out = of_stage(totals.fanned_out, r.name, nullptr);
      r.children = of_stage(totals.children, r.name, nullptr);
      r.merged = of_stage(totals.merged, r.name, nullptr);
      r.merge_results = of_stage(totals.merge_results, r.name, nullptr);
      of_stage(totals.stage_counts, r.name, &r.counts);
    }
    r.kept = reaching - dropped - r.fanned_out - r.merged + r.children + r.merge_results;
    reaching = r.kept;
    out.push_back(std::move(r));
  }
  return out;
}

Status write_video_summary(const RunReport& report, const std::string& path) {
  const RunCounts& t = report.totals;
  auto level = [&](std::string_view name) {
    auto it = t.levels.find(std::string(name));
    return it == t.levels.end() ? LevelCounts{} : it->second;
  };
  const LevelCounts videos = level("video@0");
  const LevelCounts clips = level("clip@1");
  JsonWriter out(true);
  out.begin_object();
  out.key("status").value(report.status.is_ok() ? "ok" : "failed");
  out.key("videos").begin_object();
  out.key("in").value(videos.created);
  out.key("split").value(videos.fanned_out);
  out.key("dropped").value(videos.dropped);
  out.key("errors").value(videos.errors);
  out.key("kept_unsplit").value(videos.kept);
  out.end_object();
  out.key("clips").begin_object();
  out.key("made").value(clips.created);
  out.key("kept").value(clips.kept);
  out.key("dropped").value(clips.dropped);
  out.key("errors").value(clips.errors);
  out.end_object();
  out.key("dropped_by_reason").begin_object();
  for (const auto& [reason, count] : t.dropped) out.key(reason).value(count);
  out.end_object();
  out.key("errors_by_kind").begin_object();
  for (const auto& [kind, count] : t.errors) out.key(kind).value(count);
  out.end_object();
  out.key("reconciles").value(videos.reconciles() && clips.reconciles() && t.reconciles());
  double busy = 0;
  for (const StepReport& step : report.steps) busy += step.busy_seconds;
  out.key("steps").begin_array();
  for (const StepReport& step : report.steps) {
    out.begin_object();
    out.key("name").value(step.name);
    out.key("busy_seconds").value(step.busy_seconds);
    out.key("busy_share").value(busy > 0 ? step.busy_seconds / busy : 0.0);
    out.end_object();
  }
  out.end_array();
  out.key("elapsed_seconds").value(report.elapsed_seconds);
  out.key("clips_per_second")
      .value(report.elapsed_seconds > 0 ? double(clips.kept) / report.elapsed_seconds : 0.0);
  out.end_object();
  return AtomicFile::write_whole(path, out.take() + "\n");
}

namespace {

// One step's entry of stats.json's "steps".
void write_step_json(JsonWriter& out, const StepReport& step) {
  out.begin_object();
  out.key("name").value(step.name);
  out.key("type").value(step.type);
  out.key("kind_in").value(step.kind_in);
  out.key("kind_out").value(step.kind_out);
  out.key("workers").value(step.workers);
  out.key("items_in").value(step.docs_in);
  out.key("items_out").value(step.kept);
  out.key("dropped").begin_object();
  for (const auto& [reason, n] : step.dropped) out.key(reason).value(n);
  out.end_object();
  if (step.fanned_out || step.children) {
    out.key("fanned_out").value(step.fanned_out);
    out.key("children").value(step.children);
  }
  if (step.merged || step.merge_results) {
    out.key("merged").value(step.merged);
    out.key("merge_results").value(step.merge_results);
  }
  if (!step.counts.empty()) {
    out.key("counts").begin_object();
    for (const auto& [metric, n] : step.counts) out.key(metric).value(n);
    out.end_object();
  }
  out.key("batches").value(step.batches);
  out.key("bytes_in").value(step.bytes_in);
  out.key("busy_seconds").value(step.busy_seconds);
  out.key("cpus_per_worker").value(step.resources.cpus);
  out.key("gpus_per_worker").value(step.resources.gpus);
  out.key("pinned").value(step.pinned);
  if (!step.fused_group.empty()) out.key("fused_group").value(step.fused_group);
  write_summary_members(out, step.summary);
  out.end_object();
}

// The executor steps that ran several stages: workers and scaling are the group's.
void write_fused_groups_json(JsonWriter& out, const RunReport& report) {
  out.key("fused_groups").begin_array();
  for (const FusedGroupReport& group : report.fused_groups) {
    out.begin_object();
    out.key("name").value(group.name);
    out.key("stages").begin_array();
    for (size_t k : group.members) {
      if (k < report.steps.size()) out.value(report.steps[k].name);
    }
    out.end_array();
    out.key("workers").value(group.workers);
    out.key("batches").value(group.batches);
    out.key("busy_seconds").value(group.busy_seconds);
    write_summary_members(out, group.summary);
    out.end_object();
  }
  out.end_array();
}

// One pass over the data: where it began and what each of its parts cost.
void write_pass_json(JsonWriter& out, const PassRecord& pass) {
  out.begin_object();
  out.key("name").value(pass.name);
  out.key("origin").value(pass.origin);
  out.key("stored").value(pass.stored);
  out.key("seconds").value(pass.seconds);
  out.key("input_bytes").value(pass.input_bytes);
  if (pass.columns) {
    out.key("columns").begin_array();
    for (const std::string& column : *pass.columns) out.value(column);
    out.end_array();
  }
  out.key("busy_seconds").begin_object();
  for (const PartTotal& part : pass.parts) out.key(part.name).value(part.busy_ns / 1e9);
  out.end_object();
  out.end_object();
}

}  // namespace

Status write_stats_json(const RunReport& report, const std::string& path) {
  JsonWriter out(true);
  out.begin_object();
  out.key("winnow_version").value(kVersion);
  out.key("status").value(report.status.is_ok() ? "ok" : report.stopped ? "stopped" : "failed");
  if (!report.status.is_ok()) out.key("error").value(report.status.message());
  out.key("fingerprint").value(report.fingerprint);
  out.key("elapsed_seconds").value(report.elapsed_seconds);
  out.key("threads").value(report.threads);
  out.key("resources").begin_object();
  out.key("cpu_threads").value(report.threads);
  out.key("gpus").value(report.gpus);
  out.key("gpus_detected").value(report.gpus_detected);
  out.end_object();
  out.key("autoscale").begin_object();
  out.key("enabled").value(report.autoscaled);
  out.key("interval_ms").value(report.autoscale_interval_ms);
  out.key("cycles").value(report.autoscale_cycles);
  out.key("metrics_intervals").value(static_cast<uint64_t>(report.samples.size()));
  out.end_object();
  out.key("fuse").value(report.fused);
  out.key("ranks").value(report.ranks);
  out.key("input_files").value(static_cast<uint64_t>(report.input_files));
  out.key("input_shards").value(static_cast<uint64_t>(report.input_shards));
  out.key("input_files_skipped_complete").value(static_cast<uint64_t>(report.skipped_files));
  out.key("input_files_completed").value(static_cast<uint64_t>(report.completed_files));
  out.key("totals");
  report.totals.write_json(out);
  out.key("reconciles").value(report.totals.reconciles());
  out.key("steps").begin_array();
  for (const StepReport& step : report.steps) write_step_json(out, step);
  out.end_array();
  write_fused_groups_json(out, report);
  out.key("passes").begin_array();
  for (const PassRecord& pass : report.passes) write_pass_json(out, pass);
  out.end_array();
  if (!report.global_steps.empty()) {
    out.key("global_steps").begin_object();
    for (const GlobalStepSummary& step : report.global_steps) {
      out.key(step.name);
      out.raw(step.json);
    }
    out.end_object();
  }
  out.end_object();
  return AtomicFile::write_whole(path, out.take() + "\n");
}

std::string reconcile_text(const RunCounts& t) {
  auto sum = [](const std::map<std::string, uint64_t>& m) {
    uint64_t n = 0;
    for (const auto& [name, v] : m) n += v;
    return n;
  };
  std::string made, ended;
  if (!t.children.empty()) made += fmt::format(" + children {}", sum(t.children));
  if (!t.merge_results.empty()) made += fmt::format(" + merged items {}", sum(t.merge_results));
  if (!t.fanned_out.empty()) ended += fmt::format(" + fanned out {}", sum(t.fanned_out));
  if (!t.merged.empty()) ended += fmt::format(" + merged {}", sum(t.merged));
  return fmt::format("documents {}{} = kept {} + dropped {} + errors {}{}  [{}]", t.documents, made,
                     t.kept, t.dropped_total(), t.errors_total(), ended,
                     t.reconciles() ? "reconciled" : "DOES NOT RECONCILE");
}

std::string step_activity_text(const StepReport& step) {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
  if (step.fanned_out || step.children) {
    add(fmt::format("fanned out {} into {} children", step.fanned_out, step.children));
  }
  if (step.merged || step.merge_results) {
    add(fmt::format("merged {} into {}", step.merged, step.merge_results));
  }
  for (const auto& [metric, n] : step.counts) add(fmt::format("{} {}", metric, n));
  return text;
}

std::string format_summary(const RunReport& report) {
  const RunCounts& t = report.totals;
  std::string s;
  s += fmt::format("winnow: {} in {:.2f} s with {} threads{} ({}) -> {}\n",
                   report.status.is_ok() ? "done"
                   : report.stopped      ? "stopped"
                                         : "FAILED",
                   report.elapsed_seconds, report.threads,
                   report.gpus > 0 ? fmt::format(", {} GPUs", report.gpus) : "",
                   report.autoscaled ? "autoscaled" : "fixed workers", report.output_dir);
  if (!report.status.is_ok()) {
    s += fmt::format("  the counts below cover only the {} shard(s) that are complete\n",
                     report.completed_files + report.skipped_files);
  }
  if (report.identify_only) {
    for (const GlobalStepSummary& step : report.global_steps) {
      s += fmt::format("  {}{}: {}", step.name, step.reused ? " (identify result reused)" : "",
                       step.text);
    }
    s += "  identify only: no document written; `winnow dedup remove` with the same pipeline "
         "and input writes them\n";
    return s;
  }
  s += fmt::format(
      "  input files {}{} ({} already complete), {:.1f} MB read, {:.1f} MB/s\n", report.input_files,
      report.input_shards > report.input_files ? fmt::format(" in {} shards", report.input_shards)
                                               : "",
      report.skipped_files, t.input_bytes / 1e6,
      report.elapsed_seconds > 0 ? t.input_bytes / 1e6 / report.elapsed_seconds : 0.0);
  size_t width = 24;  // the step column fits the longest name
  for (const StepReport& step : report.steps) width = std::max(width, step.name.size());
  s += fmt::format("  {:<{}} {:>8} {:>12} {:>12} {:>10} {:>6}  {}\n", "step", width, "workers",
                   "in", "out", "busy s", "busy%", "dropped");
  for (const StepReport& step : report.steps) {
    std::string dropped;
    for (const auto& [reason, n] : step.dropped) {
      dropped += fmt::format("{}{}={}", dropped.empty() ? "" : " ", reason, n);
    }
    const std::string activity = step_activity_text(step);
    if (!activity.empty()) dropped += (dropped.empty() ? "" : ", ") + activity;
    s += fmt::format("  {:<{}} {:>8} {:>12} {:>12} {:>10.2f} {:>5.0f}%  {}\n", step.name, width,
                     step.workers, step.docs_in, step.kept, step.busy_seconds,
                     100 * step.summary.busy_fraction, dropped.empty() ? "-" : dropped);
  }
  for (const FusedGroupReport& group : report.fused_groups) {
    s += fmt::format(
        "  fused: {} ran its {} steps in turn on each batch: {} worker(s) shared by them, "
        "{:.0f}% busy, {:.2f} ms per batch\n",
        group.name, group.members.size(), group.workers, 100 * group.summary.busy_fraction,
        group.summary.mean_service_ms);
  }
  for (const GlobalStepSummary& step : report.global_steps) {
    s += fmt::format("  {}{}: {}", step.name, step.reused ? " (identify result reused)" : "",
                     step.text);
  }
  if (report.passes.size() > 1) {
    for (const PassRecord& pass : report.passes) {
      double busy = 0;
      for (const PartTotal& part : pass.parts) busy += part.busy_ns / 1e9;
      std::string projection;
      if (pass.columns) {
        projection = fmt::format("; read Parquet columns {}", fmt::join(*pass.columns, ", "));
      }
      s += fmt::format(
          "  pass {}: from {}, {:.2f} s, {:.2f} s busy{}{}\n", pass.name, pass.origin, pass.seconds,
          busy, pass.stored ? "; stored its batches for the passes after it" : "", projection);
    }
  }
  for (const auto& [name, level] : t.levels) {
    if (t.levels.size() == 1 && level.fanned_out == 0 && level.merged == 0) break;  // as above
    s += fmt::format(
        "  {}: made {} = kept {} + dropped {} + errors {} + fanned out {} + merged {}\n", name,
        level.created, level.kept, level.dropped, level.errors, level.fanned_out, level.merged);
  }
  s += "  " + reconcile_text(t) + "\n";
  // The error itself goes to stderr once (the CLI prints it), not here as well.
  return s;
}

}  // namespace winnow
