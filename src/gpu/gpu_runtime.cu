// gpu_runtime.h on the CUDA runtime (linked statically: without a driver, cudaGetDeviceCount
// fails and the process carries on with no device).
#include <cuda_runtime.h>

#include <mutex>

#include "gpu/gpu_runtime.h"

namespace winnow::gpu {

namespace {

struct Probe {
  int devices = 0;
  std::string reason;
};

const Probe& probe() {
  static Probe result;
  static std::once_flag once;
  std::call_once(once, [] {
    int n = 0;
    cudaError_t error = cudaGetDeviceCount(&n);
    if (error != cudaSuccess) {
      cudaGetLastError();  // clear the sticky error for later calls
      result.reason = error == cudaErrorNoDevice             ? "no CUDA-capable device"
                      : error == cudaErrorInsufficientDriver ? "no CUDA driver, or one older than "
                                                               "this build's CUDA runtime"
                                                             : cudaGetErrorString(error);
      return;
    }
    result.devices = n;
    if (n == 0) result.reason = "no CUDA-capable device (CUDA_VISIBLE_DEVICES may hide them)";
  });
  return result;
}

}  // namespace

bool built_with_cuda() { return true; }
int device_count() { return probe().devices; }
std::string unavailable_reason() { return probe().reason; }

DeviceInfo device_info(int device) {
  DeviceInfo info;
  if (device < 0 || device >= device_count()) return info;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();  // not sticky: leave no error behind for the next call to find
    return info;
  }
  info.name = prop.name;
  info.memory_bytes = prop.totalGlobalMem;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  return info;
}

size_t free_memory(int device) {
  if (device < 0 || device >= device_count() || !retired_reason(device).empty()) return 0;
  int current = 0;
  if (cudaGetDevice(&current) != cudaSuccess) {
    cudaGetLastError();  // a failed query must not fail the caller's next CUDA call
    return 0;
  }
  size_t free = 0, total = 0;
  // cudaMemGetInfo answers for the calling thread's current device: switch to `device` and
  // back, so the caller's device is left as it was.
  if (cudaSetDevice(device) != cudaSuccess || cudaMemGetInfo(&free, &total) != cudaSuccess) {
    cudaGetLastError();
    free = 0;
  }
  if (current != device && cudaSetDevice(current) != cudaSuccess) cudaGetLastError();
  return free;
}

}  // namespace winnow::gpu
