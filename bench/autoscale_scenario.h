#pragma once
// The autoscaler benchmark's scenario (bench/autoscale_bench.cpp), shared with the test that
// guards it on a simulated clock (tests/pipeline/autoscale_scenario_test.cpp):
//
//   read → parse → cpu (0.8 ms per document: 4x the GPU-like stage's cost per document) →
//   gpu (a single exclusive slot: needs 1 GPU, fixed 20 ms per batch) → fanout (3 chunks per
//   document, 0.02 ms per document) → sink (0.05 ms per chunk) → encode → write
//
// The costs are waits on a Clock: on the real clock a sleep costs the same whatever else runs
// on the machine, so the figures measure scheduling, not contention; on a simulated clock they
// are exact. The budget is one of simulated CPU threads (default 12) plus one GPU slot (the run
// is told it has 1 GPU; nothing touches a real device).
#include <string>

#include "core/stage.h"
#include "pipeline/clock.h"
#include "pipeline/executor.h"

namespace winnow::autoscale_scenario {

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

// The built-in stages plus `bench_cpu` (1 CPU thread per worker) and `bench_gpu` (1 GPU per
// worker), which spend their costs waiting on `clock`.
StageRegistry registry(Clock& clock);

// One stage of the scenario ("cpu", "gpu", "fanout" or "sink") as a YAML list item. From
// `change_at_s` after it is built the cpu stage costs a quarter; `gpu_workers` > 0 pins the gpu
// stage's workers.
std::string stage_yaml(const std::string& which, const Settings& s, double change_at_s = 0,
                       int gpu_workers = 0);
// The whole scenario's stages.
std::string all_stages(const Settings& s, double change_at_s = 0);

// `s.docs` short documents in `s.shards` JSONL files under `dir`.
void write_corpus(const Settings& s, const std::string& dir);

struct Outcome {
  RunReport report;
  double seconds = 0;  // on the run's clock
};
// Runs `stages` over `input` into `output` (overwritten) on `clock`, each stage its own step
// (unfused: the scenarios measure how workers move between steps). Exits the process with a
// message when the run fails.
Outcome run(const StageRegistry& registry, const Settings& s, const std::string& stages,
            const std::string& input, const std::string& output, bool autoscale, int threads,
            Clock& clock);

size_t step_index(const RunReport& r, const std::string& name);

// The steady part of a run: after the warm-up, before the reader has consumed the input (the
// tail, where steps finish one by one, is not steady state).
struct Steady {
  double busy = 0;        // the step's busy fraction
  double docs_per_s = 0;  // documents written per second
  int changes = 0;        // worker target changes (ups + downs) in the window
  double from = 0, to = 0;
};
Steady steady(const RunReport& r, size_t step, double warmup_s);

// The profile-change run: the cpu step's workers before and after the change, how many cycles
// it took to settle, and the gpu step's busy fraction after it.
struct Settling {
  int change_cycle = -1;
  int before = 0, settled = 0;
  int cycles_to_settle = -1;
  double gpu_busy_after = 0;
};
Settling settling(const RunReport& r, size_t cpu, size_t gpu, double change_at_s);

}  // namespace winnow::autoscale_scenario
