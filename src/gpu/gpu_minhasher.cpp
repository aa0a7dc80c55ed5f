#include "gpu/gpu_minhasher.h"

#include <xxhash.h>

#include "gpu/minhash_device.h"
#include "gpu/xxh3_short.h"

namespace winnow::gpu {

Result<std::unique_ptr<GpuMinHasher>> GpuMinHasher::create(GpuMinHashParams params) {
  if (params.a.size() != params.b.size() || params.bands <= 0 || params.rows <= 0 ||
      params.a.size() != static_cast<size_t>(params.bands) * params.rows) {
    return Status::error("GPU MinHash: permutations do not match bands x rows");
  }
  std::unique_ptr<GpuMinHasher> hasher(new GpuMinHasher(std::move(params)));
  detail::MinHashDeviceParams p;
  p.device = hasher->params_.device;
  p.a = hasher->params_.a.data();
  p.b = hasher->params_.b.data();
  p.k = hasher->k();
  p.bands = hasher->params_.bands;
  p.rows = hasher->params_.rows;
  p.window = hasher->params_.window;
  p.chunk_hashes = hasher->params_.chunk_hashes;
  std::string error;
  hasher->device_ = detail::minhash_device_create(p, error);
  if (!hasher->device_) {
    return Status::errorf("GPU MinHash on device {}: {}", hasher->params_.device, error);
  }
  return hasher;
}

GpuMinHasher::~GpuMinHasher() { detail::minhash_device_destroy(device_); }

bool GpuMinHasher::usable() const { return detail::minhash_device_usable(device_); }

Status GpuMinHasher::run(const MinHashBatch& batch, std::vector<uint32_t>& signatures,
                         std::vector<uint64_t>& keys) {
  const size_t k = params_.a.size();
  const size_t bands = static_cast<size_t>(params_.bands);
  const size_t rows = static_cast<size_t>(params_.rows);
  signatures.resize(batch.size() * k);
  keys.resize(batch.size() * bands);
  std::string error;
  if (!detail::minhash_device_run(device_, batch, signatures.data(), keys.data(), error)) {
    return Status::errorf("GPU MinHash on device {}: {}", params_.device, error);
  }
  if (rows * sizeof(uint32_t) > xxh3::kMaxShortLength) {
    for (size_t d = 0; d < batch.size(); ++d) {
      for (size_t band = 0; band < bands; ++band) {
        keys[d * bands + band] = XXH3_64bits_withSeed(signatures.data() + d * k + band * rows,
                                                      rows * sizeof(uint32_t), band + 1);
      }
    }
  }
  return Status::ok();
}

}  // namespace winnow::gpu
