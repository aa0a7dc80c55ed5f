#pragma once
// DevicePlacement: which GPU each GPU worker is bound to, and the GPU budget per device.
//
// The run's GPU budget (`gpus:`) is spread over devices 0, 1, ... (the CUDA runtime's numbers,
// after CUDA_VISIBLE_DEVICES): 2.5 is two whole devices and half of a third. A worker that
// needs a fraction of a GPU is bound to one device with that much room left (the least loaded,
// ties to the lower number), so a fractional worker never spans two devices; a worker that
// needs k whole GPUs takes k devices that are entirely free (the first such run of k). Binding
// is for the worker's life (its model and buffers live on that device); the units it holds
// while processing a batch are taken from its own device (ResourcePool), so the budget holds
// per device, not only in total. Plain C++, no CUDA: unit-tested without a device.
#include <cstdint>
#include <vector>

namespace winnow {

class DevicePlacement {
 public:
  static constexpr int64_t kUnitsPerGpu = 1000;

  DevicePlacement() = default;
  // `gpus` of budget: floor(gpus) whole devices plus one holding the remaining fraction.
  explicit DevicePlacement(double gpus);

  static int64_t units(double gpus);
  int devices() const { return static_cast<int>(capacity_.size()); }
  int64_t capacity(int device) const { return capacity_.at(device); }
  // Units bound to workers on the device.
  int64_t bound(int device) const { return bound_.at(device); }

  // Binds a worker needing `gpus` (> 0); returns its (first) device, or -1 when no device has
  // room. Whole-GPU workers get devices [first, first + gpus).
  int bind(double gpus);
  void unbind(int device, double gpus);

  // The devices a worker bound at `device` needing `gpus` uses.
  static int span(double gpus) { return gpus > 1 ? static_cast<int>(gpus + 1e-9) : 1; }

 private:
  std::vector<int64_t> capacity_;
  std::vector<int64_t> bound_;
};

}  // namespace winnow
