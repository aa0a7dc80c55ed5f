// minhash_device.h in a build without CUDA: no device, ever.
#include "gpu/minhash_device.h"

namespace winnow::gpu::detail {

MinHashDevice* minhash_device_create(const MinHashDeviceParams&, std::string& error) {
  error = "this winnow was built without CUDA";
  return nullptr;
}

void minhash_device_destroy(MinHashDevice*) {}

bool minhash_device_usable(const MinHashDevice*) { return false; }

bool minhash_device_run(MinHashDevice*, const MinHashBatch&, uint32_t*, uint64_t*,
                        std::string& error) {
  error = "this winnow was built without CUDA";
  return false;
}

}  // namespace winnow::gpu::detail
