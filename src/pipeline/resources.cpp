#include "pipeline/resources.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "core/number_text.h"
#include "core/visible_devices.h"

namespace winnow {

namespace {

int parse_count(const char* text) {
  if (!text) return -1;
  auto value = parse_number<int>(text);
  if (!value || *value < 0 || *value > 4096) return -1;
  return *value;
}

// Devices CUDA_VISIBLE_DEVICES leaves visible; -1 when it is unset.
int visible_device_limit() {
  auto visible = visible_devices_from_environment();
  return visible ? static_cast<int>(visible->size()) : -1;
}

}  // namespace

int detect_gpus() {
  int forced = parse_count(std::getenv("WINNOW_GPU_COUNT"));
  if (forced >= 0) return forced;
  int found = 0;
  try {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", ec)) {
      if (entry.is_directory(ec)) ++found;
    }
  } catch (...) {
    return 0;
  }
  int limit = visible_device_limit();
  return limit >= 0 ? std::min(found, limit) : found;
}

Result<StageResources> resolve_stage_resources(const std::string& stage_name,
                                               const StageResources& needs,
                                               const ResourceBudget& budget) {
  StageResources out = needs;
  if (out.cpus < 0 || out.gpus < 0) {
    return Status::errorf("stage '{}' declares negative resources", stage_name);
  }
  if (out.gpus > 0 && budget.gpus <= 0) {
    if (!out.cpu_fallback) {
      return Status::errorf(
          "stage '{}' needs a GPU ({} per worker) but this run has none (none detected under "
          "/proc/driver/nvidia/gpus, or gpus: 0); set `gpus:` in the pipeline or --gpus if a "
          "GPU is present, or remove the stage",
          stage_name, out.gpus);
    }
    out.gpus = 0;  // runs on the CPU
  }
  if (out.gpus > 1 && std::floor(out.gpus) != out.gpus) {
    return Status::errorf(
        "stage '{}' asks for {} GPUs per worker: more than one GPU must be a whole number",
        stage_name, out.gpus);
  }
  if (out.gpus > budget.gpus) {
    return Status::errorf("stage '{}' needs {} GPUs per worker but the run has only {}", stage_name,
                          out.gpus, budget.gpus);
  }
  // A worker on a GPU holds its device share, not a core's: its thread spends the batch waiting
  // for kernels and copies, and a CPU share held through that wait would be taken from the CPU
  // steps that feed the device (with `threads: 2`, half the budget idle behind one GPU worker).
  if (out.gpus > 0) out.cpus = 0;
  return out;
}

int max_workers_for(const StageResources& needs, const ResourceBudget& budget) {
  int by_cpu = needs.cpus > 0 ? budget.cpus / needs.cpus : 1 << 20;
  int by_gpu = 1 << 20;
  if (needs.gpus > 0) {
    int devices = static_cast<int>(std::floor(budget.gpus + 1e-9));
    if (needs.gpus <= 1) {
      by_gpu = devices * static_cast<int>(std::floor(1.0 / needs.gpus + 1e-9));
    } else {
      by_gpu = devices / static_cast<int>(needs.gpus);
    }
  }
  return std::max(0, std::min(by_cpu, by_gpu));
}

ResourcePool::ResourcePool(const ResourceBudget& budget, Clock& clock)
    : freed_(clock),
      cpus_total_(std::max(1, budget.cpus)),
      cpus_free_(cpus_total_),
      gpus_total_(gpu_units(budget.gpus)),
      gpus_free_(gpus_total_),
      placement_(budget.gpus) {
  for (int d = 0; d < placement_.devices(); ++d) device_free_.push_back(placement_.capacity(d));
}

int64_t ResourcePool::gpu_units(double gpus) const {
  return static_cast<int64_t>(std::llround(gpus * 1000));
}

bool ResourcePool::acquire(const StageResources& needs, int device) {
  int cpus = std::min(needs.cpus, cpus_total_);
  int64_t gpus = std::min(gpu_units(needs.gpus), gpus_total_);
  // A worker bound to a device takes its share there: per device, min(share, what the device
  // has), for each device of a whole-GPU worker.
  const int span = DevicePlacement::span(needs.gpus);
  auto device_fits = [&] {
    if (device < 0 || gpus == 0) return true;
    for (int d = device; d < device + span && d < static_cast<int>(device_free_.size()); ++d) {
      if (device_free_[d] < std::min(gpus / span, placement_.capacity(d))) return false;
    }
    return true;
  };
  std::unique_lock lock(mutex_);
  freed_.wait(lock, [&] {
    return cancelled_ || (cpus_free_ >= cpus && gpus_free_ >= gpus && device_fits());
  });
  if (cancelled_) return false;
  cpus_free_ -= cpus;
  gpus_free_ -= gpus;
  if (device >= 0 && gpus > 0) {
    for (int d = device; d < device + span && d < static_cast<int>(device_free_.size()); ++d) {
      device_free_[d] -= std::min(gpus / span, placement_.capacity(d));
    }
  }
  return true;
}

void ResourcePool::release(const StageResources& needs, int device) {
  {
    std::lock_guard lock(mutex_);
    const int64_t gpus = std::min(gpu_units(needs.gpus), gpus_total_);
    cpus_free_ += std::min(needs.cpus, cpus_total_);
    gpus_free_ += gpus;
    const int span = DevicePlacement::span(needs.gpus);
    if (device >= 0 && gpus > 0) {
      for (int d = device; d < device + span && d < static_cast<int>(device_free_.size()); ++d) {
        device_free_[d] += std::min(gpus / span, placement_.capacity(d));
      }
    }
  }
  freed_.notify_all();
}

GpuBinding ResourcePool::bind_gpu(const StageResources& needs) {
  if (needs.gpus <= 0) return {};
  std::lock_guard lock(mutex_);
  if (placement_.devices() == 0) return {};
  int device = placement_.bind(needs.gpus);
  if (device >= 0) return {device, true};
  // More workers than the devices hold (the floor of one worker per step): share the least
  // loaded device; acquire() makes them take turns.
  int least = 0;
  for (int d = 1; d < placement_.devices(); ++d) {
    if (placement_.bound(d) < placement_.bound(least)) least = d;
  }
  return {least, false};
}

void ResourcePool::unbind_gpu(const StageResources& needs, const GpuBinding& binding) {
  if (!binding.held) return;
  std::lock_guard lock(mutex_);
  placement_.unbind(binding.device, needs.gpus);
}

int ResourcePool::try_take(int wanted) {
  std::lock_guard lock(mutex_);
  if (cancelled_ || wanted <= 0) return 0;
  int taken = std::min(wanted, cpus_free_);
  cpus_free_ -= taken;
  return taken;
}

void ResourcePool::give_back(int taken) {
  if (taken <= 0) return;
  {
    std::lock_guard lock(mutex_);
    cpus_free_ += taken;
  }
  freed_.notify_all();
}

void ResourcePool::cancel() {
  {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
  }
  freed_.notify_all();
}

}  // namespace winnow
