#include "bench/autoscale_scenario.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "pipeline/pipeline_config.h"
#include "pipeline/simulated_clock.h"
#include "stages/builtin_stages.h"

namespace winnow::autoscale_scenario {

namespace {

namespace fs = std::filesystem;

// Waits until `start + micros` on `clock`. On the real clock it sleeps most of it and yields
// through the last 1.5 ms, because on a loaded machine a sleeping thread wakes a few ms late,
// which would stretch the known costs.
void spend(Clock& clock, Clock::time_point start, double micros) {
  auto deadline = start + std::chrono::nanoseconds(static_cast<int64_t>(micros * 1e3));
  if (&clock != &Clock::system()) {
    clock.sleep_until(deadline);
    return;
  }
  std::this_thread::sleep_until(deadline - std::chrono::microseconds(1500));
  while (clock.now() < deadline) std::this_thread::yield();
}

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
  struct Costs {
    double per_doc_us, per_batch_us, change_at_s, change_factor;
    bool per_chunk;
    int fanout;
  };
  CostStage(Clock& clock, Costs costs) : clock_(clock), costs_(costs), built_(clock.now()) {}

  Status process(DocBatch& batch) override {
    auto start = clock_.now();
    double per_doc = costs_.per_doc_us;
    if (costs_.change_at_s > 0 &&
        std::chrono::duration<double>(start - built_).count() >= costs_.change_at_s) {
      per_doc *= costs_.change_factor;
    }
    double units = 0;
    if (costs_.per_chunk) {
      for (size_t i = 0; i < batch.size(); ++i) {
        if (batch.kept(i)) units += static_cast<double>(chunks_of(batch, i));
      }
    } else {
      units = static_cast<double>(batch.kept_count());
    }
    if (costs_.fanout > 1) {
      AnnotationColumn& column = batch.annotation("chunks", AnnotationType::kInt);
      for (size_t i = 0; i < batch.size(); ++i) {
        if (batch.kept(i)) column.set_int(i, costs_.fanout);
      }
    }
    spend(clock_, start, costs_.per_batch_us + per_doc * units);
    return Status::ok();
  }

 private:
  Clock& clock_;
  Costs costs_;
  Clock::time_point built_;
};

StageSpec cost_spec(Clock& clock, const std::string& name, StageResources resources) {
  StageSpec spec{
      name,
      "benchmark stage: waits a known cost",
      {
          {"per_doc_us", ParamType::kFloat, "0", "microseconds per kept document (or chunk)"},
          {"per_batch_us", ParamType::kFloat, "0", "microseconds per batch"},
          {"change_at_s", ParamType::kFloat, "0", "seconds after start when the cost changes"},
          {"change_factor", ParamType::kFloat, "1", "per-document cost multiplier then"},
          {"per_chunk", ParamType::kBool, "false", "cost per chunk (fanout annotation)"},
          {"fanout", ParamType::kInt, "1", "chunks per document this stage emits"},
      },
      [&clock](const StageParams& p, StageContext&) -> Result<std::unique_ptr<Stage>> {
        return std::unique_ptr<Stage>(new CostStage(
            clock, {p.get_float("per_doc_us"), p.get_float("per_batch_us"),
                    p.get_float("change_at_s"), p.get_float("change_factor"),
                    p.get_bool("per_chunk"), static_cast<int>(p.get_int("fanout"))}));
      },
  };
  spec.resources = resources;
  return spec;
}

}  // namespace

StageRegistry registry(Clock& clock) {
  StageRegistry registry;
  register_builtin_stages(registry);
  registry.add(cost_spec(clock, "bench_cpu", StageResources{1, 0, false}));
  registry.add(cost_spec(clock, "bench_gpu", StageResources{1, 1.0, false}));  // one slot
  return registry;
}

std::string stage_yaml(const std::string& which, const Settings& s, double change_at_s,
                       int gpu_workers) {
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

std::string all_stages(const Settings& s, double change_at_s) {
  return stage_yaml("cpu", s, change_at_s) + stage_yaml("gpu", s) + stage_yaml("fanout", s) +
         stage_yaml("sink", s);
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

Outcome run(const StageRegistry& registry, const Settings& s, const std::string& stages,
            const std::string& input, const std::string& output, bool autoscale, int threads,
            Clock& clock) {
  std::string yaml = fmt::format(
      "output: {{format: jsonl, write_rejected: false}}\nbatch_size: {}\n"
      "autoscale: {{enabled: {}, interval_ms: {}}}\nstages:\n{}",
      s.batch, autoscale ? "true" : "false", s.interval_ms, stages);
  auto config = PipelineConfig::load_string(yaml, "bench.yaml", registry);
  if (!config.is_ok()) {
    std::fprintf(stderr, "autoscale scenario: %s\n", config.status().message().c_str());
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
  options.clock = &clock;
  // On a simulated clock this thread takes part: its waits (for the passes to end) let the
  // clock move.
  std::optional<SimulatedClock::Participant> taking_part;
  if (auto* simulated = dynamic_cast<SimulatedClock*>(&clock)) taking_part.emplace(*simulated);
  auto begin = clock.now();
  Outcome out{run_pipeline(*config, options), 0};
  out.seconds = clock.seconds_since(begin);
  if (!out.report.status.is_ok()) {
    std::fprintf(stderr, "autoscale scenario: run failed: %s\n",
                 out.report.status.message().c_str());
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

Steady steady(const RunReport& r, size_t step, double warmup_s) {
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
      busy_time += x.steps[step].busy_fraction * dt;
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

Settling settling(const RunReport& r, size_t cpu, size_t gpu, double change_at_s) {
  Settling out;
  const auto& cs = r.samples;
  uint64_t end_bytes = cs.empty() ? 0 : cs.back().compressed_bytes;
  size_t last_steady = 0;
  for (size_t k = 0; k < cs.size(); ++k) {
    if (cs[k].compressed_bytes < end_bytes) last_steady = k;
  }
  for (size_t k = 0; k < cs.size(); ++k) {
    if (cs[k].t < change_at_s) out.before = cs[k].steps[cpu].target;
    if (cs[k].t >= change_at_s && out.change_cycle < 0) out.change_cycle = static_cast<int>(k);
  }
  out.settled = last_steady < cs.size() ? cs[last_steady].steps[cpu].target : 0;
  size_t from = out.change_cycle >= 0 ? static_cast<size_t>(out.change_cycle) : cs.size();
  for (size_t k = from; k <= last_steady && k < cs.size(); ++k) {
    if (cs[k].steps[cpu].target == out.settled) {
      out.cycles_to_settle = static_cast<int>(k) - out.change_cycle + 1;
      break;
    }
  }
  double busy_after = 0, time_after = 0;
  for (size_t k = from + 1; k <= last_steady && k < cs.size(); ++k) {
    double dt = cs[k].t - cs[k - 1].t;
    busy_after += cs[k].steps[gpu].busy_fraction * dt;
    time_after += dt;
  }
  out.gpu_busy_after = time_after > 0 ? busy_after / time_after : 0;
  return out;
}

}  // namespace winnow::autoscale_scenario
