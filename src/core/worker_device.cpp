#include "core/worker_device.h"

namespace winnow {

namespace {
thread_local int bound_device = -1;
}

int worker_gpu_device() { return bound_device; }
void set_worker_gpu_device(int device) { bound_device = device; }

}  // namespace winnow
