#pragma once
// The numbers a run records about its steps over time: one RunSample per interval (a line of
// metrics.jsonl, a point of report.html's charts) and one StepSummary per step for stats.json.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace winnow {

// One member stage of a fused step (pipeline/step_fusion.h): its share of the step's interval.
struct PartSample {
  double busy_fraction = 0;    // time in this stage / the step's ready-worker time
  double mean_service_ms = 0;  // per batch, over the interval (0: no batch finished in it)
  double setup_s = 0;          // all setups so far, summed
};

struct StepSample {
  int target = 0;
  int starting = 0;
  int ready = 0;
  int busy = 0;  // at the end of the interval
  int idle = 0;
  double busy_fraction = 0;  // of its ready workers' time during the interval
  size_t input_queue = 0;    // batches waiting, at the end of the interval
  size_t input_capacity = 0;
  double input_fill = 0;  // mean occupancy over the interval, 0..1
  size_t output_queue = 0;
  size_t output_capacity = 0;
  double batches_per_s = 0;
  double docs_per_s = 0;          // source documents (input records) per second
  double mean_service_ms = 0;     // over the sliding window
  double setup_s = 0;             // all setups so far, summed
  std::string decision;           // the autoscaler's word on this step this cycle
  std::vector<PartSample> parts;  // a fused step's member stages, in order; empty otherwise
};

struct RunSample {
  double t = 0;                   // seconds since the run started
  uint64_t documents_done = 0;    // written (kept, dropped or errors)
  uint64_t input_bytes = 0;       // uncompressed bytes read
  uint64_t compressed_bytes = 0;  // input file bytes consumed
  std::vector<StepSample> steps;
};

// What one part (a step before fusion) of a pass did: its busy time and batches.
struct PartTotal {
  std::string name;
  uint64_t busy_ns = 0;
  uint64_t batches = 0;
};

// One pass over the data: which, where it began, whether it stored its batches for the passes
// after it, and what each part cost.
struct PassRecord {
  std::string name;    // "identify exact_dedup", "write"
  std::string origin;  // "the input", "the batches stored before exact_dedup"
  bool stored = false;
  double seconds = 0;
  std::vector<PartTotal> parts;
  uint64_t input_bytes = 0;  // of records read (Parquet: the JSON of the columns read)
  // The Parquet columns it asked for (pipeline/record_projection.h); nullopt: every column.
  std::optional<std::vector<std::string>> columns;
};

struct StepSummary {
  int workers_min = 0;  // targets over the run
  int workers_max = 0;
  int scale_ups = 0;  // changes of the target, counted per worker
  int scale_downs = 0;
  double busy_fraction = 0;  // busy time / ready-worker time, whole run
  double mean_service_ms = 0;
  double setup_seconds = 0;
  double mean_input_fill = 0;
  // A fused step's member stages: the step's worker counts, fill and scaling, with their own
  // busy time (as a fraction of the step's ready-worker time), service time and setup.
  std::vector<StepSummary> parts;
};

}  // namespace winnow
