#include "dedup/gpu_minhash_pool.h"

#include <fmt/format.h>

#include <cstdio>

#include "core/worker_device.h"
#include "gpu/gpu_runtime.h"

namespace winnow {

Result<std::unique_ptr<GpuMinHashPool>> GpuMinHashPool::create(const MinHashSigner& signer) {
  const MinHashParams& p = signer.params();
  if (p.scheme != MinHashScheme::kClassic) {
    return Status::error(
        "the GPU MinHash runs the classic scheme only (one_permutation is one "
        "hash per shingle: the CPU's job)");
  }
  if (gpu::device_count() == 0) return Status::error(gpu::unavailable_reason());
  gpu::GpuMinHashParams params;
  params.a = signer.permutation_a();
  params.b = signer.permutation_b();
  params.bands = p.bands;
  params.rows = p.rows;
  // Word shingles are hashed on the host (datatrove's normalisation is ICU's); the device then
  // only computes minima and keys, and its window is never used.
  params.window = p.shingles.kind == ShingleKind::kChars ? p.shingles.n : 1;
  std::unique_ptr<GpuMinHashPool> pool(new GpuMinHashPool(std::move(params)));
  // The first hasher proves a device works; it goes to the caller's device (a bound worker's, or
  // the first of this rank's devices) and is lent like any other.
  const int device = pick_gpu_device(worker_gpu_device(), gpu::device_count(), pool->made_++);
  auto first = pool->make(device);
  if (!first.is_ok()) return first.status();
  pool->idle_.push_back(std::move(first).value());
  return pool;
}

Result<std::unique_ptr<GpuMinHashPool::Lease>> GpuMinHashPool::make(int device) {
  gpu::GpuMinHashParams params = params_;
  params.device = device;
  auto hasher = gpu::GpuMinHasher::create(std::move(params));
  if (!hasher.is_ok()) return hasher.status();
  auto lease = std::make_unique<Lease>(
      Lease{std::move(hasher).value(), gpu::MinHashBatch(params_.window), {}, {}});
  return lease;
}

std::unique_ptr<GpuMinHashPool::Lease> GpuMinHashPool::take() {
  const int devices = gpu::device_count();
  const int bound =
      worker_gpu_device() >= 0 ? pick_gpu_device(worker_gpu_device(), devices, 0) : -1;
  int device = 0;
  std::vector<std::unique_ptr<Lease>> broken;  // destroyed after the lock is let go
  {
    std::lock_guard lock(mutex_);
    // Idle hashers on a device retired since they were given back are dropped, not lent.
    for (size_t i = idle_.size(); i-- > 0;) {
      if (!idle_[i]->hasher->usable()) {
        broken.push_back(std::move(idle_[i]));
        idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    for (size_t i = 0; i < idle_.size(); ++i) {
      if (bound < 0 || idle_[i]->hasher->device() == bound) {
        std::unique_ptr<Lease> lease = std::move(idle_[i]);
        idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(i));
        return lease;
      }
    }
    device = pick_gpu_device(bound, devices, made_++);
  }
  // A device retired by a sticky error gets no new hasher: its batches run on the CPU (the
  // retirement printed why).
  if (device < 0 || !gpu::retired_reason(device).empty()) return nullptr;
  auto lease = make(device);
  if (!lease.is_ok()) {
    static std::once_flag once;
    std::call_once(once, [&] {
      std::fprintf(stderr, "winnow: %s; those batches run on the CPU\n",
                   lease.status().message().c_str());
    });
    return nullptr;
  }
  return std::move(lease).value();
}

void GpuMinHashPool::give_back(std::unique_ptr<Lease> lease) {
  // A hasher whose device met a sticky error is dropped, not lent again.
  if (!lease || !lease->hasher->usable()) return;
  lease->batch.clear();
  std::lock_guard lock(mutex_);
  idle_.push_back(std::move(lease));
}

}  // namespace winnow
