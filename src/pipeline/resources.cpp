#include "pipeline/resources.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace winnow {

namespace {

int parse_count(const char* text) {
  if (!text || !*text) return -1;
  char* end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 0 || value > 4096) return -1;
  return static_cast<int>(value);
}

// Devices listed in CUDA_VISIBLE_DEVICES ("" or "-1" hide them all).
int visible_device_limit() {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible) return -1;
  std::string_view list(visible);
  if (list.empty() || list.front() == '-') return 0;
  return static_cast<int>(std::count(list.begin(), list.end(), ',')) + 1;
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

ResourcePool::ResourcePool(const ResourceBudget& budget)
    : cpus_total_(std::max(1, budget.cpus)),
      cpus_free_(cpus_total_),
      gpus_total_(gpu_units(budget.gpus)),
      gpus_free_(gpus_total_) {}

int64_t ResourcePool::gpu_units(double gpus) const {
  return static_cast<int64_t>(std::llround(gpus * 1000));
}

bool ResourcePool::acquire(const StageResources& needs) {
  int cpus = std::min(needs.cpus, cpus_total_);
  int64_t gpus = std::min(gpu_units(needs.gpus), gpus_total_);
  std::unique_lock lock(mutex_);
  freed_.wait(lock, [&] { return cancelled_ || (cpus_free_ >= cpus && gpus_free_ >= gpus); });
  if (cancelled_) return false;
  cpus_free_ -= cpus;
  gpus_free_ -= gpus;
  return true;
}

void ResourcePool::release(const StageResources& needs) {
  {
    std::lock_guard lock(mutex_);
    cpus_free_ += std::min(needs.cpus, cpus_total_);
    gpus_free_ += std::min(gpu_units(needs.gpus), gpus_total_);
  }
  freed_.notify_all();
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
