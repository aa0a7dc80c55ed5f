// gpu_runtime.h in a build without CUDA (nvcc not found, or WINNOW_CUDA=OFF).
#include "gpu/gpu_runtime.h"

namespace winnow::gpu {

bool built_with_cuda() { return false; }
int device_count() { return 0; }
std::string unavailable_reason() { return "this winnow was built without CUDA"; }
DeviceInfo device_info(int) { return {}; }
size_t free_memory(int) { return 0; }

}  // namespace winnow::gpu
