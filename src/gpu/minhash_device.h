#pragma once
// The CUDA side of GpuMinHasher (minhash_device.cu; minhash_device_none.cpp without CUDA).
// Internal to gpu/: plain declarations, no CUDA types, and no fmt (nvcc compiles the .cu).
#include <cstdint>
#include <string>

#include "gpu/minhash_batch.h"

namespace winnow::gpu::detail {

struct MinHashDevice;

struct MinHashDeviceParams {
  int device = 0;
  const uint32_t* a = nullptr;  // k permutations a * h + b (mod 2^32)
  const uint32_t* b = nullptr;
  int k = 0;
  int bands = 0;
  int rows = 0;
  int window = 0;             // character-shingle width in bytes (device-shingled documents)
  uint64_t chunk_hashes = 0;  // shingle hashes per chunk (per stream)
};

// nullptr and `error` set when the device cannot be used.
MinHashDevice* minhash_device_create(const MinHashDeviceParams& params, std::string& error);
void minhash_device_destroy(MinHashDevice* state);
// False once a sticky CUDA error met the state's device (it is retired: gpu_runtime.h), so the
// state must not be reused.
bool minhash_device_usable(const MinHashDevice* state);

// signatures: batch.size() * k values; keys: batch.size() * bands values, or nullptr when
// a band's rows are longer than the device's XXH3 handles (rows * 4 > 240 bytes).
bool minhash_device_run(MinHashDevice* state, const MinHashBatch& batch, uint32_t* signatures,
                        uint64_t* keys, std::string& error);

}  // namespace winnow::gpu::detail
