// Autoscaler benchmark: a pipeline of synthetic stages with known costs run through the real
// executor (run_pipeline) four ways, with the figures issue #6 asks for.
//
//   read (winnow's parser, cheap) → cpu (0.8 ms per document: 4x the GPU-like stage's cost per
//   document) → gpu (a single exclusive slot: needs 1 GPU, fixed 20 ms per batch) → fanout
//   (3 chunks per document, 0.02 ms per document) → sink (0.05 ms per chunk) → write
//
// Costs are sleeps, not spins: this machine has 2 cores shared with other work, and a sleep
// costs the same whatever else runs, so the figures measure scheduling rather than contention.
// The budget is therefore a budget of simulated CPU threads (default 12) plus one GPU slot
// (the run is told it has 1 GPU; nothing touches a real device).
//
// Runs: the GPU-like stage alone (its isolated rate); the full pipeline streaming under the
// autoscaler from one worker per step; the same with fixed equal worker counts; stage by stage
// (batch mode: each stage over everything, intermediates written to disk and read back); and a
// run whose CPU stage becomes 4x cheaper midway.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "stages/builtin_stages.h"
#include "pipeline/executor.h"
#include "pipeline/pipeline_config.h"

namespace winnow {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Waits until `start + micros`, so per-call overheads do not add up: sleeps most of it, then
// yields through the last 1.5 ms, because on a loaded machine a sleeping thread wakes up to a
// few ms late, which would stretch the known costs.
void spend(Clock::time_point start, double micros) {
  auto deadline = start + std::chrono::nanoseconds(static_cast<int64_t>(micros * 1e3));
  std::this_thread::sleep_until(deadline - std::chrono::microseconds(1500));
  while (Clock::now() < deadline) std::this_thread::yield();
}

size_t kept_docs(const DocBatch& batch) { return batch.kept_count(); }

// Chunks per document: the fanout stage's annotation, or the field it became when a batch-mode
// run wrote it out and the next run read it back.
int64_t chunks_of(const DocBatch& batch, size_t i) {
  if (const AnnotationColumn* c = batch.find_annotation("chunks"); c && c->has(i))
    return c->int_at(i);
  std::string_view record = batch.record(i);
  size_t at = record.find("\"chunks\":");
  if (at == std::string_view::npos) return 1;
  return std::strtoll(record.data() + at + 9, nullptr, 10);
}

// A cost per document and per batch; from `change_at_s` after the stage is built, the per-
// document cost is multiplied by `change_factor` (the mid-run profile change).
class CostStage : public Stage {
 public:
  CostStage(double per_doc_us, double per_batch_us, double change_at_s, double change_factor,
            bool per_chunk, int fanout)
      : per_doc_us_(per_doc_us),
        per_batch_us_(per_batch_us),
        change_at_s_(change_at_s),
        change_factor_(change_factor),
        per_chunk_(per_chunk),
        fanout_(fanout),
        built_(Clock::now()) {}

  Status process(DocBatch& batch) override {
    auto start = Clock::now();
    double per_doc = per_doc_us_;
    if (change_at_s_ > 0 && std::chrono::duration<double>(start - built_).count() >= change_at_s_) {
      per_doc *= change_factor_;
    }
    double units = 0;
    if (per_chunk_) {
      for (size_t i = 0; i < batch.size(); ++i) {
        if (batch.kept(i)) units += static_cast<double>(chunks_of(batch, i));
      }
    } else {
      units = static_cast<double>(kept_docs(batch));
    }
    if (fanout_ > 1) {
      AnnotationColumn& column = batch.annotation("chunks", AnnotationType::kInt);
      for (size_t i = 0; i < batch.size(); ++i) {
        if (batch.kept(i)) column.set_int(i, fanout_);
      }
    }
    spend(start, per_batch_us_ + per_doc * units);
    return Status::ok();
  }

 private:
  double per_doc_us_, per_batch_us_, change_at_s_, change_factor_;
  bool per_chunk_;
  int fanout_;
  Clock::time_point built_;
};

StageSpec cost_spec(const std::string& name, StageResources resources) {
  StageSpec spec{
      name,
      "benchmark stage: sleeps a known cost",
      {
          {"per_doc_us", ParamType::kFloat, "0", "microseconds per kept document (or chunk)"},
          {"per_batch_us", ParamType::kFloat, "0", "microseconds per batch"},
          {"change_at_s", ParamType::kFloat, "0", "seconds after start when the cost changes"},
          {"change_factor", ParamType::kFloat, "1", "per-document cost multiplier then"},
          {"per_chunk", ParamType::kBool, "false", "cost per chunk (fanout annotation)"},
          {"fanout", ParamType::kInt, "1", "chunks per document this stage emits"},
      },
      [](const StageParams& p, StageContext&) -> Result<std::unique_ptr<Stage>> {
        return std::unique_ptr<Stage>(
            new CostStage(p.get_float("per_doc_us"), p.get_float("per_batch_us"),
                          p.get_float("change_at_s"), p.get_float("change_factor"),
                          p.get_bool("per_chunk"), static_cast<int>(p.get_int("fanout"))));
      },
  };
  spec.resources = resources;
  return spec;
}

StageRegistry bench_registry() {
  StageRegistry registry;
  register_builtin_stages(registry);
  registry.add(cost_spec("bench_cpu", StageResources{1, 0, false}));
  registry.add(cost_spec("bench_gpu", StageResources{1, 1.0, false}));  // one exclusive slot
  return registry;
}

struct Settings {
  int docs = 60000;
  int shards = 8;
  int batch = 100;
  int budget = 12;
  int interval_ms = 500;
  double warmup_s = 3;
  double gpu_batch_ms = 20;
  double cpu_doc_ms = 0.8;  // 4x the GPU-like stage's 0.2 ms per document
  std::string dir = "build/bench/autoscale";
};

std::string stage_yaml(const std::string& which, const Settings& s, double change_at_s = 0,
                       int gpu_workers = 0) {
  if (which == "cpu") {
    return fmt::format(
        "  - {{stage: bench_cpu, name: cpu, per_doc_us: {}, change_at_s: {}, change_factor: "
        "0.25}}\n",
        s.cpu_doc_ms * 1e3, change_at_s);
  }
  if (which == "gpu") {
    return fmt::format("  - {{stage: bench_gpu, name: gpu, per_batch_us: {}, workers: {}}}\n",
                       s.gpu_batch_ms * 1e3, gpu_workers);
  }
  if (which == "fanout") return "  - {stage: bench_cpu, name: fanout, per_doc_us: 20, fanout: 3}\n";
  return "  - {stage: bench_cpu, name: sink, per_doc_us: 50, per_chunk: true}\n";
}

struct Outcome {
  RunReport report;
  double seconds = 0;
};

Outcome run(const StageRegistry& registry, const Settings& s, const std::string& stages,
            const std::string& input, const std::string& output, bool autoscale, int threads,
            const std::string& extra = "") {
  std::string yaml = fmt::format(
      "output: {{format: jsonl, write_rejected: false}}\nbatch_size: {}\n"
      "autoscale: {{enabled: {}, interval_ms: {}}}\n{}stages:\n{}",
      s.batch, autoscale ? "true" : "false", s.interval_ms, extra, stages);
  auto config = PipelineConfig::load_string(yaml, "bench.yaml", registry);
  if (!config.is_ok()) {
    fmt::print(stderr, "bench: {}\n", config.status().message());
    std::exit(1);
  }
  RunOptions options;
  options.inputs = {input};
  options.output = output;
  options.overwrite = true;
  options.threads = threads;
  options.gpus = 1;
  options.autoscale = autoscale;
  // Each stage its own step: the scenarios measure how workers move between the cpu-like and
  // gpu-like steps, and the report's per-stage indices then match the samples' steps.
  options.fuse = false;
  auto begin = Clock::now();
  Outcome out{run_pipeline(*config, options), 0};
  out.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  if (!out.report.status.is_ok()) {
    fmt::print(stderr, "bench: run failed: {}\n", out.report.status.message());
    std::exit(1);
  }
  return out;
}

size_t step_index(const RunReport& r, const std::string& name) {
  for (size_t i = 0; i < r.steps.size(); ++i) {
    if (r.steps[i].name == name) return i;
  }
  return 0;
}

// The steady part of a run: after the warm-up, before the reader has consumed the input (the
// tail, where steps finish one by one, is not steady state).
struct Steady {
  double busy = 0;        // the GPU-like step's busy fraction
  double docs_per_s = 0;  // documents written per second
  int changes = 0;        // worker target changes (ups + downs) in the window
  double from = 0, to = 0;
};

Steady steady(const RunReport& r, size_t gpu, double warmup_s) {
  Steady out;
  uint64_t total_bytes = r.samples.empty() ? 0 : r.samples.back().compressed_bytes;
  const RunSample* first = nullptr;
  const RunSample* last = nullptr;
  double busy_time = 0, time = 0;
  const RunSample* prev = nullptr;
  for (const RunSample& x : r.samples) {
    if (x.t >= warmup_s && x.compressed_bytes < total_bytes) {
      if (!first) first = prev ? prev : &x;
      double dt = prev ? x.t - prev->t : x.t;
      busy_time += x.steps[gpu].busy_fraction * dt;
      time += dt;
      if (prev) {
        for (size_t i = 0; i < x.steps.size(); ++i) {
          out.changes += std::abs(x.steps[i].target - prev->steps[i].target);
        }
      }
      last = &x;
    }
    prev = &x;
  }
  if (first && last && last->t > first->t) {
    out.busy = busy_time / time;
    out.docs_per_s = (last->documents_done - first->documents_done) / (last->t - first->t);
    out.from = first->t;
    out.to = last->t;
  }
  return out;
}

std::string targets_line(const RunReport& r) {
  std::string out;
  for (const auto& st : r.steps) {
    out += fmt::format("{}{}={} ({}–{})", out.empty() ? "" : ", ", st.name, st.workers,
                       st.summary.workers_min, st.summary.workers_max);
  }
  return out;
}

void write_corpus(const Settings& s, const std::string& dir) {
  fs::create_directories(dir);
  int per_shard = s.docs / s.shards;
  for (int shard = 0; shard < s.shards; ++shard) {
    std::ofstream out(fmt::format("{}/part-{:02}.jsonl", dir, shard));
    for (int i = 0; i < per_shard; ++i) {
      out << fmt::format(
                 R"({{"id":"d{}-{}","text":"synthetic document {} of shard {} with some words"}})",
                 shard, i, i, shard)
          << "\n";
    }
  }
}

int main_impl(int argc, char** argv) {
  Settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string key = argv[i];
    double v = std::atof(argv[i + 1]);
    if (key == "--docs")
      s.docs = static_cast<int>(v);
    else if (key == "--budget")
      s.budget = static_cast<int>(v);
    else if (key == "--interval-ms")
      s.interval_ms = static_cast<int>(v);
    else if (key == "--dir")
      s.dir = argv[i + 1];
    else {
      fmt::print(stderr,
                 "usage: autoscale_bench [--docs N] [--budget N] [--interval-ms N] [--dir D]\n");
      return 2;
    }
  }
  StageRegistry registry = bench_registry();
  std::string corpus = s.dir + "/corpus";
  fs::remove_all(s.dir);
  write_corpus(s, corpus);
  const double docs = s.docs;
  fmt::print(
      "autoscale bench: {} documents in {} shards, batch {}, budget {} CPU threads + 1 "
      "GPU slot, re-plan every {} ms\n",
      s.docs, s.shards, s.batch, s.budget, s.interval_ms);
  fmt::print(
      "costs (sleeps): cpu {} ms/doc, gpu {} ms/batch ({} ms/doc), fanout 0.02 ms/doc x3 "
      "chunks, sink 0.05 ms/chunk\n\n",
      s.cpu_doc_ms, s.gpu_batch_ms, s.gpu_batch_ms / s.batch);

  // 1. The GPU-like stage alone: its isolated rate, the ceiling of the whole pipeline. Measured
  //    before and after the other runs (this machine is shared), the faster one kept.
  auto isolated = [&] {
    Outcome iso = run(registry, s, stage_yaml("gpu", s), corpus, s.dir + "/iso", true, s.budget);
    Steady iso_steady = steady(iso.report, step_index(iso.report, "gpu"), 1.0);
    double rate = iso_steady.docs_per_s > 0 ? iso_steady.docs_per_s : docs / iso.seconds;
    fmt::print(
        "isolated gpu stage: {:.0f} docs/s steady ({:.0f} docs/s over the whole run, "
        "{:.2f} ms per batch; theory {:.0f})\n",
        rate, docs / iso.seconds,
        iso.report.steps[step_index(iso.report, "gpu")].summary.mean_service_ms,
        s.batch / (s.gpu_batch_ms / 1e3));
    return rate;
  };
  double iso_rate = isolated();

  std::string all =
      stage_yaml("cpu", s) + stage_yaml("gpu", s) + stage_yaml("fanout", s) + stage_yaml("sink", s);

  // 2. Streaming under the autoscaler, from one worker per step.
  Outcome st = run(registry, s, all, corpus, s.dir + "/stream", true, s.budget);
  size_t gpu = step_index(st.report, "gpu");
  Steady sst = steady(st.report, gpu, s.warmup_s);
  fmt::print("\nstreaming, autoscaled: {:.2f} s, {:.0f} docs/s whole run\n", st.seconds,
             docs / st.seconds);
  fmt::print(
      "  steady window {:.1f}–{:.1f} s: gpu busy {:.2f}%, {:.0f} docs/s, worker changes "
      "in window: {}\n",
      sst.from, sst.to, 100 * sst.busy, sst.docs_per_s, sst.changes);
  fmt::print("  workers final (min–max): {}\n", targets_line(st.report));
  fmt::print("  gpu mean service {:.2f} ms per batch\n",
             st.report.steps[gpu].summary.mean_service_ms);
  int first_balanced = -1;
  for (size_t k = 1; k < st.report.samples.size(); ++k) {
    bool same = true;
    for (size_t j = k; j < st.report.samples.size(); ++j) {
      if (st.report.samples[j].compressed_bytes >= st.report.samples.back().compressed_bytes) break;
      for (size_t i = 0; i < st.report.samples[j].steps.size(); ++i) {
        if (st.report.samples[j].steps[i].target != st.report.samples[k].steps[i].target)
          same = false;
      }
    }
    if (same) {
      first_balanced = static_cast<int>(k);
      break;
    }
  }
  fmt::print("  balanced (no further change until the input ends) from cycle {} (t = {:.1f} s)\n",
             first_balanced, first_balanced >= 0 ? st.report.samples[first_balanced].t : 0.0);

  // 3. Fixed equal worker counts: the budget split evenly over the six steps.
  // The single-slot stage keeps its one worker.
  int equal = std::max(1, s.budget / 6);
  std::string fixed_stages = stage_yaml("cpu", s) + stage_yaml("gpu", s, 0, 1) +
                             stage_yaml("fanout", s) + stage_yaml("sink", s);
  Outcome fx = run(registry, s, fixed_stages, corpus, s.dir + "/fixed", false, equal);
  Steady fst = steady(fx.report, gpu, s.warmup_s);
  fmt::print(
      "\nfixed, {} workers per step (gpu 1): {:.2f} s, {:.0f} docs/s whole run; steady gpu busy "
      "{:.1f}%, {:.0f} docs/s\n",
      equal, fx.seconds, docs / fx.seconds, 100 * fst.busy, fst.docs_per_s);

  // 4. Batch mode: one stage at a time over everything, each with the whole budget;
  //    intermediates go to disk as JSONL and are read back by the next stage.
  double batch_seconds = 0;
  std::string input = corpus;
  std::string line;
  for (const char* name : {"cpu", "gpu", "fanout", "sink"}) {
    std::string out = s.dir + "/batch-" + name;
    Outcome b = run(registry, s, stage_yaml(name, s), input, out, true, s.budget);
    batch_seconds += b.seconds;
    line += fmt::format("{}{} {:.2f} s", line.empty() ? "" : ", ", name, b.seconds);
    input = out + "/part-*.jsonl";  // the kept shards only, not metrics.jsonl
  }
  fmt::print("\nbatch mode (stage by stage): {:.2f} s, {:.0f} docs/s ({})\n", batch_seconds,
             docs / batch_seconds, line);

  iso_rate = std::max(iso_rate, isolated());

  // 5. Cost profile change: the CPU stage becomes 4x cheaper halfway through.
  double change_at = 0.5 * docs / iso_rate;
  std::string changing = stage_yaml("cpu", s, change_at) + stage_yaml("gpu", s) +
                         stage_yaml("fanout", s) + stage_yaml("sink", s);
  Outcome ch = run(registry, s, changing, corpus, s.dir + "/change", true, s.budget);
  size_t cpu = step_index(ch.report, "cpu");
  int before = 0, cycles_to_settle = -1, change_cycle = -1;
  const auto& cs = ch.report.samples;
  uint64_t end_bytes = cs.empty() ? 0 : cs.back().compressed_bytes;
  size_t last_steady = 0;
  for (size_t k = 0; k < cs.size(); ++k) {
    if (cs[k].compressed_bytes < end_bytes) last_steady = k;
  }
  for (size_t k = 0; k < cs.size(); ++k) {
    if (cs[k].t < change_at) before = cs[k].steps[cpu].target;
    if (cs[k].t >= change_at && change_cycle < 0) change_cycle = static_cast<int>(k);
  }
  int settled = last_steady < cs.size() ? cs[last_steady].steps[cpu].target : 0;
  for (size_t k = change_cycle >= 0 ? change_cycle : cs.size(); k <= last_steady && k < cs.size();
       ++k) {
    if (cs[k].steps[cpu].target == settled) {
      cycles_to_settle = static_cast<int>(k) - change_cycle + 1;
      break;
    }
  }
  double busy_after = 0, time_after = 0;
  for (size_t k = change_cycle >= 0 ? change_cycle + 1 : cs.size();
       k <= last_steady && k < cs.size(); ++k) {
    double dt = cs[k].t - cs[k - 1].t;
    busy_after += cs[k].steps[gpu].busy_fraction * dt;
    time_after += dt;
  }
  fmt::print(
      "\nprofile change at {:.1f} s (cpu 4x cheaper): cpu workers {} -> {}, settled {} "
      "cycle(s) ({} ms each) after the change; gpu busy after it {:.2f}%; {:.0f} docs/s "
      "whole run\n",
      change_at, before, settled, cycles_to_settle, s.interval_ms,
      time_after > 0 ? 100 * busy_after / time_after : 0.0, docs / ch.seconds);
  fmt::print("  workers final (min–max): {}\n", targets_line(ch.report));

  fmt::print(
      "\nsummary: throughput docs/s — streaming autoscaled {:.0f} (steady {:.0f}), fixed "
      "equal {:.0f}, batch mode {:.0f}; isolated gpu {:.0f}\n",
      docs / st.seconds, sst.docs_per_s, docs / fx.seconds, docs / batch_seconds, iso_rate);
  fmt::print("streaming steady throughput / isolated: {:.1f}% (vs theory {:.1f}%)\n",
             100 * sst.docs_per_s / iso_rate,
             100 * sst.docs_per_s / (s.batch / (s.gpu_batch_ms / 1e3)));
  bool ok = sst.busy >= 0.995 && sst.docs_per_s >= 0.95 * iso_rate && sst.changes == 0;
  fmt::print("targets (gpu busy >= 99.5%, >= 95% of isolated, no churn once balanced): {}\n",
             ok ? "met" : "NOT met");
  return 0;
}

}  // namespace
}  // namespace winnow

int main(int argc, char** argv) { return winnow::main_impl(argc, argv); }
