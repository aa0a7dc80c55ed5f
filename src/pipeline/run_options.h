#pragma once
// RunOptions: what the command line says about one run, over the pipeline file's settings.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "io/compression.h"
#include "pipeline/clock.h"
#include "pipeline/pipeline_config.h"
#include "pipeline/run_metrics.h"

namespace winnow {

namespace dist {
class Comm;
}

// Which passes a run makes when the pipeline has global steps (dedup): both (identify, then
// the streaming remove pass), only identify (`winnow dedup identify`), or only remove, from
// an identify result already in the output folder (`winnow dedup remove`).
enum class PassMode { kAll, kIdentifyOnly, kRemoveOnly };

struct RunOptions {
  std::vector<std::string> inputs;  // overrides input.paths when not empty
  std::string output;               // overrides output.path when not empty
  std::optional<std::string> output_format;  // a name: "jsonl.zst", "parquet", ...
  std::optional<OnError> on_error;
  int threads = -1;               // overrides `threads` when >= 0
  double gpus = -1;               // overrides `gpus` when >= 0
  std::optional<bool> autoscale;  // overrides autoscale.enabled
  std::optional<bool> fuse;       // overrides `fuse` (stage fusion, pipeline/step_fusion.h)
  std::optional<uint64_t> batch_size;
  bool overwrite = false;
  bool progress = false;  // live progress on stderr (a block on a terminal, else log lines)
  // With `progress`: every progress sample goes here (the monitor's thread: pass name, sample,
  // the pass's input bytes) instead of to stderr.
  std::function<void(const std::string&, const RunSample&, uint64_t)> progress_observer;
  // When set and it turns true (a signal handler), the run stops as a failure: finished shards
  // stay complete, the others leave no file behind, and a re-run resumes.
  const std::atomic<bool>* stop_requested = nullptr;
  PassMode passes = PassMode::kAll;
  // The ranks of a run started by mpirun or srun (dist/comm.h); null: one process.
  dist::Comm* comm = nullptr;
  // Where the passes read the time, wait and start threads: the steady clock, or a test's
  // simulated one (pipeline/simulated_clock.h).
  Clock* clock = &Clock::system();
};

}  // namespace winnow
