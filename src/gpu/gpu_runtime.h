#pragma once
// The CUDA runtime behind a plain interface (no CUDA header here): whether this build has CUDA,
// how many devices this process may use, and the one line a GPU path prints when it falls back
// to the CPU. In a build without CUDA (gpu_runtime_none.cpp) there are no devices.
#include <cstddef>
#include <string>
#include <string_view>

namespace winnow::gpu {

bool built_with_cuda();

// Devices this process may use: the CUDA runtime's count, which honours CUDA_VISIBLE_DEVICES
// (device 0 is the first visible one). 0 without CUDA, without a driver or without a device.
// Probed once (the first call loads the driver); thread-safe.
int device_count();

// Why device_count() is 0, as a phrase ("no CUDA driver", "no CUDA-capable device", ...);
// empty when there is a device.
std::string unavailable_reason();

// The line a GPU path prints when it runs on the CPU instead.
std::string cpu_fallback_message(std::string_view what, std::string_view reason);

// Prints cpu_fallback_message to stderr, once per process (whichever stage asks first), and
// only in a build with CUDA: a CPU-only build has nothing to fall back from. `reason` defaults
// to unavailable_reason().
void note_cpu_fallback(std::string_view what, std::string_view reason = {});
// After this, note_cpu_fallback prints nothing in this process: across the ranks of a job,
// rank 0 says it for the job (the winnow command mutes the others), not once per rank.
void mute_cpu_fallback_note();

struct DeviceInfo {
  std::string name;
  size_t memory_bytes = 0;
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
};
// Empty name when `device` does not exist.
DeviceInfo device_info(int device);

// A device whose CUDA context met a sticky error (an illegal address, a kernel fault: every
// later call in this process fails the same way) is retired: the GPU paths stop using it and
// run on the CPU, and the first retirement prints one line to stderr saying why. Process-wide
// and thread-safe; plain C++ (gpu_fallback.cpp), so it exists in every build.
void retire_device(int device, std::string_view why);
// Why `device` was retired ("" when it was not).
std::string retired_reason(int device);

// Bytes free on `device` now (cudaMemGetInfo; it creates the device's context if this thread
// has none); 0 when the device does not exist or without CUDA.
size_t free_memory(int device);

}  // namespace winnow::gpu
