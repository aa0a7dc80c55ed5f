#pragma once
// GpuMinHashPool: the GPU MinHash hashers of one fuzzy dedup, lent to worker threads a batch at
// a time (a hasher owns two streams and their buffers, so two threads never share one).
// Hashers are made on first need, on the worker's bound device or, for an unbound thread,
// spread over the visible devices in turn (core/worker_device.h pick_gpu_device; under MPI the
// visible devices are the rank's share); a pool of N threads ends with at most N hashers.
#include <memory>
#include <mutex>
#include <vector>

#include "dedup/minhash_signer.h"
#include "gpu/gpu_minhasher.h"

namespace winnow {

class GpuMinHashPool {
 public:
  // Fails, with the reason, when the signer's scheme or shape cannot run on a device or no
  // device is usable (a first hasher is made here to find out).
  static Result<std::unique_ptr<GpuMinHashPool>> create(const MinHashSigner& signer);

  struct Lease {
    std::unique_ptr<gpu::GpuMinHasher> hasher;
    gpu::MinHashBatch batch;
    std::vector<uint32_t> signatures;
    std::vector<uint64_t> keys;
  };
  // nullptr when no new hasher could be made, or the device is retired after a sticky CUDA
  // error (the caller hashes on the CPU).
  std::unique_ptr<Lease> take();
  // Idle again; a lease whose hasher met a sticky error is destroyed instead.
  void give_back(std::unique_ptr<Lease> lease);

 private:
  explicit GpuMinHashPool(gpu::GpuMinHashParams params) : params_(std::move(params)) {}
  Result<std::unique_ptr<Lease>> make(int device);

  gpu::GpuMinHashParams params_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Lease>> idle_;
  uint64_t made_ = 0;  // hashers made, for spreading unbound threads over the devices
};

}  // namespace winnow
