#pragma once
// GpuMinHashPool: the GPU MinHash hashers of one fuzzy dedup, lent to worker threads a batch at
// a time (a hasher owns two streams and their buffers, so two threads never share one).
// Hashers are made on first need, on the worker's bound device (core/worker_device.h) or, for
// an unbound thread, spread over the visible devices in turn; a pool of N threads ends with
// at most N hashers.
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
  // nullptr when no new hasher could be made (the caller hashes on the CPU).
  std::unique_ptr<Lease> take();
  void give_back(std::unique_ptr<Lease> lease);

 private:
  explicit GpuMinHashPool(gpu::GpuMinHashParams params) : params_(std::move(params)) {}
  Result<std::unique_ptr<Lease>> make(int device);

  gpu::GpuMinHashParams params_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Lease>> idle_;
  int made_ = 0;
};

}  // namespace winnow
