#pragma once
// GpuMinHasher: MinHash signatures and LSH band keys of a batch of documents on one CUDA
// device, equal bit for bit to MinHashSigner's (dedup/minhash_signer.h, the reference) for the
// classic scheme. Plain interface: the kernels are in minhash_device.cu. One hasher per worker
// thread (it owns two streams and their buffers); create() fails, with the reason, when there is
// no device or the build has no CUDA, and the caller keeps its CPU path.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/status.h"
#include "gpu/minhash_batch.h"

namespace winnow::gpu {

namespace detail {
struct MinHashDevice;
}

struct GpuMinHashParams {
  int device = 0;
  std::vector<uint32_t> a;  // the signer's permutations a * h + b (mod 2^32), a odd
  std::vector<uint32_t> b;
  int bands = 0;
  int rows = 0;
  int window = 0;  // character-shingle width (n); device-shingled documents use it
  // Shingle hashes per chunk: about 16 MB of hashes on the device per stream, enough
  // documents (~5,000 of 3 KB) per kernel to fill an H100-class device.
  uint64_t chunk_hashes = uint64_t{1} << 22;
};

class GpuMinHasher {
 public:
  static Result<std::unique_ptr<GpuMinHasher>> create(GpuMinHashParams params);
  ~GpuMinHasher();
  GpuMinHasher(const GpuMinHasher&) = delete;
  GpuMinHasher& operator=(const GpuMinHasher&) = delete;

  // signatures: batch.size() * k (document-major); keys: batch.size() * bands. Band keys of
  // rows longer than 240 bytes (rows > 60) are computed on the host from the signatures.
  Status run(const MinHashBatch& batch, std::vector<uint32_t>& signatures,
             std::vector<uint64_t>& keys);

  int device() const { return params_.device; }
  // False once a sticky CUDA error met its device: the hasher is dropped, never lent again.
  bool usable() const;
  int k() const { return static_cast<int>(params_.a.size()); }

 private:
  explicit GpuMinHasher(GpuMinHashParams params) : params_(std::move(params)) {}
  GpuMinHashParams params_;
  detail::MinHashDevice* device_ = nullptr;
};

}  // namespace winnow::gpu
