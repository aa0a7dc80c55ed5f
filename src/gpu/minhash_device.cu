// MinHash on the device, bit for bit the CPU's (dedup/minhash_signer.cpp, dedup/shingler.cpp):
//   1. shingle hashes: fold(XXH3-64(window)) for device-shingled documents, or the host's;
//   2. signature[j] = min over the document's hashes of a[j] * h + b[j] (mod 2^32);
//   3. band key k = XXH3-64 of band k's rows, seeded with k + 1.
// One block per document in 1 and 2 (the document's hashes staged in shared memory, each
// thread keeping kPerThread permutations' minima in registers); one thread per band in 3.
// A batch is cut into chunks (MinHashBatch::chunks) that alternate between two streams with
// their own pinned and device buffers, so one chunk's copies overlap the other's kernels.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "gpu/cuda_errors.cuh"
#include "gpu/minhash_device.h"
#include "gpu/xxh3_short.h"

namespace winnow::gpu::detail {

namespace {

__constant__ uint8_t c_secret[xxh3::kSecretSize] = {WINNOW_XXH3_SECRET_BYTES};

constexpr int kPerThread = 4;      // permutations per thread
constexpr int kMaxThreads = 1024;  // so k <= 4096 on the device
constexpr int kTile = 2048;        // hashes staged in shared memory at a time

struct DeviceDoc {
  uint64_t text_offset;  // chunk-relative
  uint64_t host_offset;  // chunk-relative
  uint64_t hash_offset;  // into the chunk's hash arena
  uint32_t text_bytes;   // 0: hashes from the host
  uint32_t hashes;
};

__global__ void shingle_hash_kernel(const DeviceDoc* docs, const uint8_t* text,
                                    const uint32_t* host_hashes, uint32_t* hashes, int window) {
  const DeviceDoc doc = docs[blockIdx.x];
  uint32_t* out = hashes + doc.hash_offset;
  if (doc.text_bytes == 0) {
    for (uint32_t i = threadIdx.x; i < doc.hashes; i += blockDim.x) {
      out[i] = host_hashes[doc.host_offset + i];
    }
    return;
  }
  const uint8_t* in = text + doc.text_offset;
  for (uint32_t i = threadIdx.x; i < doc.hashes; i += blockDim.x) {
    const uint64_t h = xxh3::hash64(in + i, static_cast<size_t>(window), 0, c_secret);
    out[i] = static_cast<uint32_t>(h ^ (h >> 32));  // dedup/shingler.h fold_hash
  }
}

__global__ void signature_kernel(const DeviceDoc* docs, const uint32_t* hashes, const uint32_t* a,
                                 const uint32_t* b, int k, uint32_t* signatures) {
  __shared__ uint32_t tile[kTile];
  const DeviceDoc doc = docs[blockIdx.x];
  const uint32_t* in = hashes + doc.hash_offset;
  uint32_t pa[kPerThread], pb[kPerThread], mins[kPerThread];
#pragma unroll
  for (int p = 0; p < kPerThread; ++p) {
    const int j = threadIdx.x + p * blockDim.x;
    // Permutations past k compute on (a, b) = (1, 0) and are never written.
    pa[p] = j < k ? a[j] : 1u;
    pb[p] = j < k ? b[j] : 0u;
    mins[p] = 0xFFFFFFFFu;
  }
  for (uint32_t base = 0; base < doc.hashes; base += kTile) {
    const uint32_t count = min(static_cast<uint32_t>(kTile), doc.hashes - base);
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < count; i += blockDim.x) tile[i] = in[base + i];
    __syncthreads();
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t h = tile[i];
#pragma unroll
      for (int p = 0; p < kPerThread; ++p) mins[p] = min(mins[p], pa[p] * h + pb[p]);
    }
  }
  uint32_t* out = signatures + static_cast<uint64_t>(blockIdx.x) * k;
#pragma unroll
  for (int p = 0; p < kPerThread; ++p) {
    const int j = threadIdx.x + p * blockDim.x;
    if (j < k) out[j] = mins[p];
  }
}

__global__ void band_key_kernel(const uint32_t* signatures, int docs, int k, int bands, int rows,
                                uint64_t* keys) {
  const uint64_t t = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= static_cast<uint64_t>(docs) * bands) return;
  const uint64_t doc = t / bands;
  const int band = static_cast<int>(t % bands);
  // The device is little-endian like the host: a band's rows are the bytes the CPU hashes.
  const uint8_t* row_bytes =
      reinterpret_cast<const uint8_t*>(signatures + doc * k + static_cast<uint64_t>(band) * rows);
  keys[t] = xxh3::hash64(row_bytes, static_cast<size_t>(rows) * 4, static_cast<uint64_t>(band) + 1,
                         c_secret);
}

// Pinned host and device buffers that grow to the largest chunk seen. Growth never frees
// mid-run (cudaFree and cudaFreeHost synchronise the whole device, stalling the other slot's
// work): outgrown buffers wait in `retired` until teardown. Growth is geometric, so what waits
// there is less than what is in use.
template <typename T>
struct Buffers {
  T* host = nullptr;
  T* device = nullptr;
  size_t capacity = 0;
  std::vector<void*> retired_host, retired_device;
  cudaError_t reserve(size_t n) {
    if (n <= capacity) return cudaSuccess;
    n = std::max<size_t>(n, capacity * 2);
    T* new_host = nullptr;
    T* new_device = nullptr;
    cudaError_t e = cudaMallocHost(reinterpret_cast<void**>(&new_host), n * sizeof(T));
    if (e != cudaSuccess) return e;
    e = cudaMalloc(reinterpret_cast<void**>(&new_device), n * sizeof(T));
    if (e != cudaSuccess) {
      retired_host.push_back(new_host);
      return e;
    }
    if (host) retired_host.push_back(host);
    if (device) retired_device.push_back(device);
    host = new_host;
    device = new_device;
    capacity = n;
    return cudaSuccess;
  }
  void release() {
    if (host) retired_host.push_back(host);
    if (device) retired_device.push_back(device);
    for (void* p : retired_host) cudaFreeHost(p);
    for (void* p : retired_device) cudaFree(p);
    retired_host.clear();
    retired_device.clear();
    host = nullptr;
    device = nullptr;
    capacity = 0;
  }
};

// A device-only buffer growing the same way (the chunk's shingle hashes).
template <typename T>
struct DeviceBuffer {
  T* device = nullptr;
  size_t capacity = 0;
  std::vector<void*> retired;
  cudaError_t reserve(size_t n) {
    if (n <= capacity) return cudaSuccess;
    n = std::max<size_t>(n, capacity * 2);
    T* fresh = nullptr;
    cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&fresh), n * sizeof(T));
    if (e != cudaSuccess) return e;
    if (device) retired.push_back(device);
    device = fresh;
    capacity = n;
    return cudaSuccess;
  }
  void release() {
    if (device) retired.push_back(device);
    for (void* p : retired) cudaFree(p);
    retired.clear();
    device = nullptr;
    capacity = 0;
  }
};

struct Slot {
  cudaStream_t stream = nullptr;
  Buffers<uint8_t> text;
  Buffers<uint32_t> host_hashes;
  Buffers<DeviceDoc> docs;
  Buffers<uint32_t> signatures;
  Buffers<uint64_t> keys;
  DeviceBuffer<uint32_t> hashes;  // the chunk's shingle hashes
  // Work was queued on the stream since it was last synchronised: the slot's pinned buffers
  // may still be read or written by copies, so it must be synchronised before reuse or
  // teardown, whether or not the launch that queued it succeeded.
  bool queued = false;
  // The chunk whose results are copied out when the slot is next drained (a launch that
  // queued everything without error).
  bool busy = false;
  MinHashChunk chunk;
};

}  // namespace

struct MinHashDevice {
  MinHashDeviceParams params;
  uint32_t* a = nullptr;
  uint32_t* b = nullptr;
  Slot slots[2];
  int threads = 0;
  bool device_keys = false;
  // A sticky error met this state's device: it is never used again (minhash_device_usable).
  bool broken = false;
};

namespace {

bool check(MinHashDevice* s, cudaError_t e, std::string& error) {
  if (e == cudaSuccess) return true;
  if (note_error(s->params.device, e, error)) s->broken = true;
  return false;
}

// Waits for the slot's queued work, then copies a finished chunk's results out of its pinned
// buffers. `collect` false: only waits (after an error, the results are not wanted).
bool drain(MinHashDevice* s, Slot& slot, uint32_t* signatures, uint64_t* keys, bool collect,
           std::string& error) {
  if (!slot.queued) return true;
  slot.queued = false;
  const bool results = slot.busy;
  slot.busy = false;
  if (!check(s, cudaStreamSynchronize(slot.stream), error)) return false;
  if (!results || !collect) return true;
  const size_t docs = slot.chunk.end - slot.chunk.begin;
  const size_t k = static_cast<size_t>(s->params.k);
  std::memcpy(signatures + slot.chunk.begin * k, slot.signatures.host, docs * k * sizeof(uint32_t));
  if (keys) {
    const size_t bands = static_cast<size_t>(s->params.bands);
    std::memcpy(keys + slot.chunk.begin * bands, slot.keys.host, docs * bands * sizeof(uint64_t));
  }
  return true;
}

bool launch(MinHashDevice* s, Slot& slot, const MinHashBatch& batch, const MinHashChunk& chunk,
            bool want_keys, std::string& error) {
  const size_t docs = chunk.end - chunk.begin;
  const size_t k = static_cast<size_t>(s->params.k);
  const size_t bands = static_cast<size_t>(s->params.bands);
  const size_t text_bytes = chunk.text_end - chunk.text_begin;
  const size_t host_count = chunk.host_end - chunk.host_begin;
  // The device reads per-document counts as 32-bit values (and a grid has < 2^31 blocks).
  if (docs > 0x7FFFFFFFu) {
    error = "a chunk of more than 2^31 documents";
    return false;
  }
  for (size_t i = chunk.begin; i < chunk.end; ++i) {
    const MinHashDoc& d = batch.docs()[i];
    if (d.hashes > 0xFFFFFFFFu || d.text_bytes > 0xFFFFFFFFu) {
      error = "a document of more than 2^32 shingles or bytes";
      return false;
    }
  }
  if (!check(s, slot.docs.reserve(docs), error) ||
      !check(s, slot.text.reserve(text_bytes + 1), error) ||
      !check(s, slot.host_hashes.reserve(host_count + 1), error) ||
      !check(s, slot.signatures.reserve(docs * k), error) ||
      !check(s, slot.keys.reserve(docs * bands), error) ||
      !check(s, slot.hashes.reserve(chunk.hashes + 1), error)) {
    return false;
  }
  // Stage the chunk in pinned memory (this CPU copy overlaps the other slot's kernels; this
  // slot's stream was synchronised by its drain, so no copy reads these buffers now).
  uint64_t hash_offset = 0;
  for (size_t i = 0; i < docs; ++i) {
    const MinHashDoc& d = batch.docs()[chunk.begin + i];
    slot.docs.host[i] = {d.text_offset - chunk.text_begin, d.host_offset - chunk.host_begin,
                         hash_offset, static_cast<uint32_t>(d.text_bytes),
                         static_cast<uint32_t>(d.hashes)};
    hash_offset += d.hashes;
  }
  std::memcpy(slot.text.host, batch.text().data() + chunk.text_begin, text_bytes);
  std::memcpy(slot.host_hashes.host, batch.host_hashes().data() + chunk.host_begin,
              host_count * sizeof(uint32_t));
  cudaStream_t st = slot.stream;
  // From the first queued copy on, the stream must be synchronised before the slot's buffers
  // are touched again, even if a later call here fails.
  slot.queued = true;
  if (!check(s,
             cudaMemcpyAsync(slot.docs.device, slot.docs.host, docs * sizeof(DeviceDoc),
                             cudaMemcpyHostToDevice, st),
             error) ||
      !check(
          s,
          cudaMemcpyAsync(slot.text.device, slot.text.host, text_bytes, cudaMemcpyHostToDevice, st),
          error) ||
      !check(s,
             cudaMemcpyAsync(slot.host_hashes.device, slot.host_hashes.host,
                             host_count * sizeof(uint32_t), cudaMemcpyHostToDevice, st),
             error)) {
    return false;
  }
  const unsigned blocks = static_cast<unsigned>(docs);
  shingle_hash_kernel<<<blocks, 256, 0, st>>>(slot.docs.device, slot.text.device,
                                              slot.host_hashes.device, slot.hashes.device,
                                              s->params.window);
  if (!check(s, cudaGetLastError(), error)) return false;
  signature_kernel<<<blocks, s->threads, 0, st>>>(slot.docs.device, slot.hashes.device, s->a, s->b,
                                                  s->params.k, slot.signatures.device);
  if (!check(s, cudaGetLastError(), error) ||
      !check(s,
             cudaMemcpyAsync(slot.signatures.host, slot.signatures.device,
                             docs * k * sizeof(uint32_t), cudaMemcpyDeviceToHost, st),
             error)) {
    return false;
  }
  if (want_keys) {
    const uint64_t threads = docs * bands;
    band_key_kernel<<<static_cast<unsigned>((threads + 127) / 128), 128, 0, st>>>(
        slot.signatures.device, static_cast<int>(docs), s->params.k, s->params.bands,
        s->params.rows, slot.keys.device);
    if (!check(s, cudaGetLastError(), error) ||
        !check(s,
               cudaMemcpyAsync(slot.keys.host, slot.keys.device, docs * bands * sizeof(uint64_t),
                               cudaMemcpyDeviceToHost, st),
               error)) {
      return false;
    }
  }
  slot.chunk = chunk;
  slot.busy = true;
  return true;
}

}  // namespace

MinHashDevice* minhash_device_create(const MinHashDeviceParams& params, std::string& error) {
  if (params.k <= 0 || params.k > kPerThread * kMaxThreads) {
    error = "more than 4096 permutations";
    return nullptr;
  }
  if (params.window <= 0 || static_cast<size_t>(params.window) > xxh3::kMaxShortLength) {
    error = "a shingle window of more than 240 bytes";
    return nullptr;
  }
  error = unusable_reason(params.device);
  if (!error.empty()) return nullptr;
  auto* s = new MinHashDevice;
  s->params = params;
  if (!check(s, cudaSetDevice(params.device), error)) {
    delete s;
    return nullptr;
  }
  const int per_thread_threads = (params.k + kPerThread - 1) / kPerThread;
  s->threads = std::max(32, (per_thread_threads + 31) / 32 * 32);
  s->device_keys = static_cast<size_t>(params.rows) * 4 <= xxh3::kMaxShortLength;
  const size_t bytes = static_cast<size_t>(params.k) * sizeof(uint32_t);
  bool ok = check(s, cudaMalloc(reinterpret_cast<void**>(&s->a), bytes), error) &&
            check(s, cudaMalloc(reinterpret_cast<void**>(&s->b), bytes), error) &&
            check(s, cudaMemcpy(s->a, params.a, bytes, cudaMemcpyHostToDevice), error) &&
            check(s, cudaMemcpy(s->b, params.b, bytes, cudaMemcpyHostToDevice), error);
  for (Slot& slot : s->slots) {
    ok = ok && check(s, cudaStreamCreateWithFlags(&slot.stream, cudaStreamNonBlocking), error);
  }
  if (!ok) {
    minhash_device_destroy(s);
    return nullptr;
  }
  return s;
}

void minhash_device_destroy(MinHashDevice* s) {
  if (!s) return;
  // Teardown's calls may fail on a broken context; their errors are cleared, not reported.
  cudaSetDevice(s->params.device);
  for (Slot& slot : s->slots) {
    if (slot.stream) cudaStreamSynchronize(slot.stream);
    slot.text.release();
    slot.host_hashes.release();
    slot.docs.release();
    slot.signatures.release();
    slot.keys.release();
    slot.hashes.release();
    if (slot.stream) cudaStreamDestroy(slot.stream);
  }
  if (s->a) cudaFree(s->a);
  if (s->b) cudaFree(s->b);
  cudaGetLastError();
  delete s;
}

bool minhash_device_usable(const MinHashDevice* s) {
  return s && !s->broken && retired_reason(s->params.device).empty();
}

bool minhash_device_run(MinHashDevice* s, const MinHashBatch& batch, uint32_t* signatures,
                        uint64_t* keys, std::string& error) {
  if (batch.size() == 0) return true;
  if (!minhash_device_usable(s)) {
    error = s->broken ? "an earlier sticky CUDA error" : unusable_reason(s->params.device);
    return false;
  }
  if (!check(s, cudaSetDevice(s->params.device), error)) return false;
  const bool want_keys = keys && s->device_keys;
  std::vector<MinHashChunk> chunks = batch.chunks(s->params.chunk_hashes);
  bool ok = true;
  for (size_t c = 0; c < chunks.size() && ok; ++c) {
    Slot& slot = s->slots[c % 2];
    ok = drain(s, slot, signatures, want_keys ? keys : nullptr, true, error) &&
         launch(s, slot, batch, chunks[c], want_keys, error);
  }
  // Both slots are synchronised even after an error (a failed launch may have queued copies
  // into its pinned buffers), so nothing is in flight when the hasher goes back to its pool.
  for (Slot& slot : s->slots) {
    std::string drain_error;
    if (!drain(s, slot, signatures, want_keys ? keys : nullptr, ok, drain_error) && ok) {
      ok = false;
      error = drain_error;
    }
  }
  return ok;
}

}  // namespace winnow::gpu::detail
