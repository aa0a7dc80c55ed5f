#include "core/worker_device.h"

namespace winnow {

namespace {
thread_local int bound_device = -1;
}

int worker_gpu_device() { return bound_device; }
void set_worker_gpu_device(int device) { bound_device = device; }

int pick_gpu_device(int bound, int devices, uint64_t turn) {
  if (devices <= 0) return -1;
  if (bound >= 0) return bound % devices;
  return static_cast<int>(turn % static_cast<uint64_t>(devices));
}

}  // namespace winnow
