#pragma once
// Resources: the budget a run may use (CPU threads, GPUs), GPU detection, the per-stage check
// that a stage's needs fit the budget, and the pool that enforces the budget while workers run.
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

#include "core/cpu_allowance.h"
#include "core/stage.h"
#include "core/status.h"

namespace winnow {

struct ResourceBudget {
  int cpus = 1;     // CPU threads, all steps together
  double gpus = 0;  // GPUs (whole devices)
};

// GPUs present on this machine. Never links CUDA: it counts /proc/driver/nvidia/gpus/* (the
// NVIDIA driver's per-device folders), limited by CUDA_VISIBLE_DEVICES when set. Any failure
// means no GPU. WINNOW_GPU_COUNT=N overrides the detection (tests, containers that hide /proc).
int detect_gpus();

// The resources one worker of a stage gets under `budget`: its declared needs, or, when it
// needs a GPU and none is budgeted but it has a CPU fallback, the same with no GPU. An error
// (naming the stage) when it cannot run at all: a GPU stage without GPUs and without fallback,
// a worker needing more GPUs or CPU threads than the whole budget.
Result<StageResources> resolve_stage_resources(const std::string& stage_name,
                                               const StageResources& needs,
                                               const ResourceBudget& budget);

// The most workers of one stage that fit the budget on their own (GPU packing: a fractional
// worker never spans two devices, a whole-GPU worker takes whole devices).
int max_workers_for(const StageResources& needs, const ResourceBudget& budget);

// Enforces the budget at run time: a worker holds its stage's resources while it processes a
// batch. When the floor of one worker per step exceeds the budget (more steps than threads),
// steps take turns instead of oversubscribing the machine.
class ResourcePool final : public CpuAllowance {
 public:
  explicit ResourcePool(const ResourceBudget& budget);

  // Blocks until the resources are free; false once cancelled. A request larger than the
  // whole budget is clamped to it (it then runs alone).
  bool acquire(const StageResources& needs);
  void release(const StageResources& needs);
  void cancel();
  // CpuAllowance: CPU threads free right now, for a worker's compressor (io/byte_sink.h).
  int try_take(int wanted) override;
  void give_back(int taken) override;

 private:
  int64_t gpu_units(double gpus) const;
  std::mutex mutex_;
  std::condition_variable freed_;
  int cpus_total_;
  int cpus_free_;
  int64_t gpus_total_;  // in 1/1000 GPU
  int64_t gpus_free_;
  bool cancelled_ = false;
};

}  // namespace winnow
