#pragma once
// Resources: the budget a run may use (CPU threads, GPUs), GPU detection, the per-stage check
// that a stage's needs fit the budget, and the pool that enforces the budget while workers run.
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "core/cpu_allowance.h"
#include "core/stage.h"
#include "core/status.h"
#include "pipeline/clock.h"
#include "pipeline/device_placement.h"

namespace winnow {

struct ResourceBudget {
  int cpus = 1;     // CPU threads, all steps together
  double gpus = 0;  // GPUs (whole devices)
};

// GPUs present on this machine. Never links CUDA: it counts /proc/driver/nvidia/gpus/* (the
// NVIDIA driver's per-device folders), limited by CUDA_VISIBLE_DEVICES when set (the entries
// the CUDA runtime honours: core/visible_devices.h). Any failure
// means no GPU. WINNOW_GPU_COUNT=N overrides the detection (tests, containers that hide /proc).
int detect_gpus();

// The resources one worker of a stage gets under `budget`: its declared needs, or, when it
// needs a GPU and none is budgeted but it has a CPU fallback, the same with no GPU. A worker
// that runs on a GPU holds no CPU share: it waits for its device (see pipeline/README.md, the
// CPU budget). An error
// (naming the stage) when it cannot run at all: a GPU stage without GPUs and without fallback,
// a worker needing more GPUs or CPU threads than the whole budget.
Result<StageResources> resolve_stage_resources(const std::string& stage_name,
                                               const StageResources& needs,
                                               const ResourceBudget& budget);

// The most workers of one stage that fit the budget on their own (GPU packing: a fractional
// worker never spans two devices, a whole-GPU worker takes whole devices).
int max_workers_for(const StageResources& needs, const ResourceBudget& budget);

// A GPU worker's device: `device` is where it runs (-1: no GPU); `held` when its share is
// bound in the placement (false only when more workers were started than the devices hold:
// then it shares the least loaded device and takes turns through acquire()).
struct GpuBinding {
  int device = -1;
  bool held = false;
};

// Enforces the budget at run time: a worker holds its stage's resources while it processes a
// batch. When the floor of one worker per step exceeds the budget (more steps than threads),
// steps take turns instead of oversubscribing the machine. GPU units are counted per device
// (DevicePlacement): a worker bound to device d takes its share of d's budget.
class ResourcePool final : public CpuAllowance {
 public:
  explicit ResourcePool(const ResourceBudget& budget, Clock& clock = Clock::system());

  // Blocks until the resources are free; false once cancelled. A request larger than the
  // whole budget is clamped to it (it then runs alone).
  // `device`: the worker's binding (bind_gpu), whose device budget its GPU share comes from.
  bool acquire(const StageResources& needs, int device = -1);
  void release(const StageResources& needs, int device = -1);
  // Binds a new worker of a GPU stage to a device for its life; a worker without GPU needs
  // gets {-1, false}.
  GpuBinding bind_gpu(const StageResources& needs);
  void unbind_gpu(const StageResources& needs, const GpuBinding& binding);
  void cancel();
  // CpuAllowance: CPU threads free right now, for a worker's compressor (io/byte_sink.h).
  int try_take(int wanted) override;
  void give_back(int taken) override;

 private:
  int64_t gpu_units(double gpus) const;
  std::mutex mutex_;
  ClockCondition freed_;
  int cpus_total_;
  int cpus_free_;
  int64_t gpus_total_;  // in 1/1000 GPU
  int64_t gpus_free_;
  DevicePlacement placement_;
  std::vector<int64_t> device_free_;  // per device, in 1/1000 GPU
  bool cancelled_ = false;
};

}  // namespace winnow
