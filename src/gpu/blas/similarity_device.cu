// Dense products for semantic dedup on cuBLAS (full FP32: the default math mode, no TF32), each
// followed by one kernel that folds the product tile into per-row results while it is on the
// device, so only a few values per row come back, never the n x n products.
//
// Memory: nothing requires the whole input on the device. Rows stream through two device
// buffers (double-buffered: tile t + 1's copy, on the copy stream, overlaps tile t's products
// on the compute stream) within a byte budget (the caller's, else nine tenths of what is free),
// so a cluster larger than the device works; when the input fits, it is copied once.
// Indices are 64-bit throughout (2^31 rows and more); cuBLAS sees tile-sized dimensions only.
//
// State: each thread keeps one context per device (cuBLAS handle, two streams, events, and
// buffers that only grow), reused across calls: semantic dedup calls once per cluster. A context
// that meets a sticky error is dropped and its device retired (gpu/cuda_errors.cuh).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "gpu/blas/product_plan.h"
#include "gpu/blas/similarity_device.h"
#include "gpu/cuda_errors.cuh"

namespace winnow::gpu::detail {

namespace {

constexpr int kThreads = 128;

// A device buffer that only grows. Growing frees the old one (cudaFree synchronises the
// device), which happens only at the start of a call, when the context's streams are idle.
struct DeviceBuffer {
  void* p = nullptr;
  size_t bytes = 0;
  cudaError_t reserve(size_t want) {
    want = std::max<size_t>(want, 1);
    if (want <= bytes) return cudaSuccess;
    if (p) cudaFree(p);
    p = nullptr;
    bytes = 0;
    cudaError_t e = cudaMalloc(&p, want);
    if (e == cudaSuccess) bytes = want;
    return e;
  }
  template <typename T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

// Pinned host memory that only grows (staging copies when the input cannot be registered, and
// results on their way out).
struct HostBuffer {
  void* p = nullptr;
  size_t bytes = 0;
  cudaError_t reserve(size_t want) {
    want = std::max<size_t>(want, 1);
    if (want <= bytes) return cudaSuccess;
    if (p) cudaFreeHost(p);
    p = nullptr;
    bytes = 0;
    cudaError_t e = cudaMallocHost(&p, want);
    if (e == cudaSuccess) bytes = want;
    return e;
  }
  template <typename T>
  T* as() const {
    return static_cast<T*>(p);
  }
};

enum Buf {
  kCentroids,
  kNorms,
  kRows0,
  kRows1,
  kProducts,
  kOut0,
  kOut1,
  kPanel,
  kBest,
  kMatched,
  kSecond,
  kBufs
};

struct Context {
  int device = 0;
  cublasHandle_t blas = nullptr;
  cudaStream_t compute = nullptr;
  cudaStream_t copy = nullptr;
  cudaEvent_t copied[2] = {nullptr, nullptr};  // a slot's rows are on the device
  cudaEvent_t used[2] = {nullptr, nullptr};    // a slot's rows were last read
  cudaEvent_t staged[2] = {nullptr, nullptr};  // a staging buffer was last read by a copy
  cudaEvent_t out[2] = {nullptr, nullptr};     // a slot's results reached pinned memory
  std::vector<cudaEvent_t> panel_events;       // one per row block of the resident panel
  DeviceBuffer buffers[kBufs];
  HostBuffer stage[2];
  HostBuffer results[2];
  bool read_only_registration = false;  // cudaDevAttrHostRegisterReadOnlySupported
  bool broken = false;

  ~Context() {
    // Best effort: on a broken context these fail, and the process ends with it anyway.
    cudaSetDevice(device);
    if (compute) cudaStreamSynchronize(compute);
    if (copy) cudaStreamSynchronize(copy);
    for (DeviceBuffer& b : buffers)
      if (b.p) cudaFree(b.p);
    for (HostBuffer* h : {&stage[0], &stage[1], &results[0], &results[1]})
      if (h->p) cudaFreeHost(h->p);
    for (cudaEvent_t* set : {copied, used, staged, out})
      for (int i = 0; i < 2; ++i)
        if (set[i]) cudaEventDestroy(set[i]);
    for (cudaEvent_t e : panel_events) cudaEventDestroy(e);
    if (blas) cublasDestroy(blas);
    if (compute) cudaStreamDestroy(compute);
    if (copy) cudaStreamDestroy(copy);
    cudaGetLastError();
  }
};

bool failed(Context& c, cudaError_t e, std::string& error) {
  if (e == cudaSuccess) return false;
  if (note_error(c.device, e, error)) c.broken = true;
  return true;
}

bool failed(Context& c, cublasStatus_t s, std::string& error) {
  if (s == CUBLAS_STATUS_SUCCESS) return false;
  error = std::string("cuBLAS: ") + cublasGetStatusString(s);
  // cuBLAS reports a kernel fault as an execution failure; the CUDA error behind it says
  // whether the context survived.
  cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess && is_sticky_error(e)) {
    std::string cuda_error;
    failed(c, e, cuda_error);
    error += " (" + cuda_error + ")";
  }
  return true;
}

// The calling thread's context on `device`, made on first use; nullptr (and `error`) when the
// device is retired or cannot be set up.
Context* context_for(int device, std::string& error) {
  thread_local std::map<int, std::unique_ptr<Context>> contexts;
  error = unusable_reason(device);
  if (!error.empty()) {
    contexts.erase(device);
    return nullptr;
  }
  std::unique_ptr<Context>& slot = contexts[device];
  if (slot && slot->broken) slot.reset();
  if (!slot) {
    auto c = std::make_unique<Context>();
    c->device = device;
    int read_only = 0;
    bool ok = !failed(*c, cudaSetDevice(device), error) &&
              !failed(*c, cudaStreamCreateWithFlags(&c->compute, cudaStreamNonBlocking), error) &&
              !failed(*c, cudaStreamCreateWithFlags(&c->copy, cudaStreamNonBlocking), error) &&
              !failed(*c, cublasCreate(&c->blas), error) &&
              !failed(*c, cublasSetStream(c->blas, c->compute), error) &&
              !failed(*c,
                      cudaDeviceGetAttribute(&read_only, cudaDevAttrHostRegisterReadOnlySupported,
                                             device),
                      error);
    for (cudaEvent_t* set : {c->copied, c->used, c->staged, c->out}) {
      for (int i = 0; i < 2 && ok; ++i) {
        ok = !failed(*c, cudaEventCreateWithFlags(&set[i], cudaEventDisableTiming), error);
      }
    }
    if (!ok) return nullptr;
    c->read_only_registration = read_only != 0;
    slot = std::move(c);
  } else if (failed(*slot, cudaSetDevice(device), error)) {
    return nullptr;
  }
  return slot.get();
}

// The caller's input, made readable by asynchronous copies: registered (page-locked in place),
// or, where registration fails (a read-only mapping on a device without read-only
// registration, a host that refuses it), copied through two pinned staging buffers. Both give
// the same bytes; registration only avoids the host's extra copy.
class HostInput {
 public:
  HostInput(Context& c, const float* x, size_t bytes) : c_(c), x_(x) {
    const char* why = nullptr;
    cudaError_t e = cudaErrorNotSupported;
    if (c.read_only_registration) {
      e = cudaHostRegister(const_cast<float*>(x), bytes, cudaHostRegisterReadOnly);
      if (e != cudaSuccess) cudaGetLastError();
    }
    if (e != cudaSuccess && e != cudaErrorHostMemoryAlreadyRegistered) {
      // Plain registration maps the pages writable: it fails on a read-only mapping.
      e = cudaHostRegister(const_cast<float*>(x), bytes, cudaHostRegisterDefault);
      if (e != cudaSuccess) {
        why = cudaGetErrorString(e);
        cudaGetLastError();
      }
    }
    if (e == cudaSuccess) {
      mode_ = c.read_only_registration ? "registered read-only" : "registered";
      registered_ = true;
    } else if (e == cudaErrorHostMemoryAlreadyRegistered) {
      mode_ = "already registered";  // pinned by someone else: theirs to unregister
    } else {
      mode_ = "staged";
      static std::once_flag once;
      std::call_once(once, [&] {
        std::fprintf(stderr,
                     "winnow: GPU products: the input cannot be page-locked (%s); its copies go "
                     "through pinned staging buffers\n",
                     why);
      });
    }
  }
  // Whichever way the call ends (an error may leave copies queued), nothing reads the input,
  // the staging buffers or writes the caller's arrays after it returns.
  ~HostInput() {
    if (cudaStreamSynchronize(c_.copy) != cudaSuccess) cudaGetLastError();
    if (cudaStreamSynchronize(c_.compute) != cudaSuccess) cudaGetLastError();
    if (registered_ && cudaHostUnregister(const_cast<float*>(x_)) != cudaSuccess) {
      cudaGetLastError();
    }
  }
  bool staged() const { return mode_ == std::string("staged"); }
  const char* mode() const { return mode_; }

  // Queues the copy of `bytes` at `src` (inside the input) to `dst` on the copy stream.
  bool upload(void* dst, const float* src, size_t bytes, std::string& error) {
    if (!staged()) {
      return !failed(c_, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, c_.copy), error);
    }
    const size_t chunk = c_.stage[0].bytes;
    for (size_t done = 0; done < bytes; done += chunk) {
      const int s = next_++ % 2;
      const size_t part = std::min(chunk, bytes - done);
      // The staging buffer is rewritten only after the copy that last read it has finished.
      if (failed(c_, cudaEventSynchronize(c_.staged[s]), error)) return false;
      std::memcpy(c_.stage[s].p, reinterpret_cast<const char*>(src) + done, part);
      if (failed(c_,
                 cudaMemcpyAsync(static_cast<char*>(dst) + done, c_.stage[s].p, part,
                                 cudaMemcpyHostToDevice, c_.copy),
                 error) ||
          failed(c_, cudaEventRecord(c_.staged[s], c_.copy), error)) {
        return false;
      }
    }
    return true;
  }

 private:
  Context& c_;
  const float* x_;
  const char* mode_ = "registered";
  bool registered_ = false;
  unsigned next_ = 0;
};

// Sizes the staging buffers for copies of up to `bytes` (a tile) when the input is staged.
bool reserve_staging(Context& c, const HostInput& input, size_t bytes, std::string& error) {
  if (!input.staged()) return true;
  return !failed(c, c.stage[0].reserve(bytes), error) &&
         !failed(c, c.stage[1].reserve(bytes), error);
}

// The byte budget of a call: the caller's, else nine tenths of what is free plus what this
// context already holds (its buffers are reused, not added to).
size_t budget_bytes(Context& c, size_t device_bytes) {
  if (device_bytes > 0) return device_bytes;
  size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  size_t held = 0;
  for (const DeviceBuffer& b : c.buffers) held += b.bytes;
  return (free + held) / 10 * 9;
}

// Largest value first, then the smaller index: the CPU's "first of equals".
__device__ __forceinline__ bool better(float v, int64_t j, float bv, int64_t bj) {
  return v > bv || (v == bv && j < bj);
}

// Folds candidate (s, c) into a thread's best (v, j) and runner-up value v2.
__device__ __forceinline__ void offer(float s, int64_t c, float& v, int64_t& j, float& v2) {
  if (j == LLONG_MAX || better(s, c, v, j)) {
    if (j != LLONG_MAX) v2 = fmaxf(v2, v);
    v = s;
    j = c;
  } else {
    v2 = fmaxf(v2, s);
  }
}

// Block-wide arg-best of (v, j) pairs, j == LLONG_MAX meaning "none", and the largest value
// apart from the best's (v2: what the host needs to tell a near tie); the result in thread 0.
__device__ void reduce_top_two(float& v, int64_t& j, float& v2) {
  __shared__ float sv[kThreads];
  __shared__ int64_t sj[kThreads];
  __shared__ float s2[kThreads];
  sv[threadIdx.x] = v;
  sj[threadIdx.x] = j;
  s2[threadIdx.x] = v2;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      const int o = threadIdx.x + half;
      float bv = sv[threadIdx.x], b2 = s2[threadIdx.x];
      int64_t bj = sj[threadIdx.x];
      b2 = fmaxf(b2, s2[o]);
      if (sj[o] != LLONG_MAX) offer(sv[o], sj[o], bv, bj, b2);
      sv[threadIdx.x] = bv;
      sj[threadIdx.x] = bj;
      s2[threadIdx.x] = b2;
    }
    __syncthreads();
  }
  v = sv[0];
  j = sj[0];
  v2 = s2[0];
  __syncthreads();  // the shared arrays are reused by the next call
}

// Rows row0 + i (global numbers) against the tile's columns col0 + c that rank before them,
// folded into the rows' running maxima (best, matched and second, the largest similarity to
// any other earlier row, hold the panel's rows from panel0). Column blocks come in increasing
// order, so a strict > keeps the first of equals.
__global__ void fold_earlier_max(const float* tile, int64_t columns, int64_t row0, int64_t col0,
                                 int64_t panel0, float* best, uint32_t* matched, float* second) {
  const int64_t i = blockIdx.x;
  const int64_t row = row0 + i;
  const int64_t limit = min(columns, row - col0);
  float v = -FLT_MAX, v2 = -FLT_MAX;
  int64_t j = LLONG_MAX;
  for (int64_t c = threadIdx.x; c < limit; c += blockDim.x) {
    const float s = tile[i * columns + c];
    if (s == s) offer(s, c, v, j, v2);  // NaN never wins
  }
  reduce_top_two(v, j, v2);
  if (threadIdx.x != 0 || j == LLONG_MAX) return;
  const int64_t r = row - panel0;
  if (v > best[r]) {
    second[r] = fmaxf(best[r], v2);
    best[r] = v;
    matched[r] = static_cast<uint32_t>(col0 + j);
  } else {
    second[r] = fmaxf(second[r], v);
  }
}

__global__ void init_running(float* best, uint32_t* matched, float* second, int64_t panel0,
                             int64_t rows) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < rows) {
    best[i] = 0.0f;  // NeMo: never below 0
    second[i] = 0.0f;
    matched[i] = static_cast<uint32_t>(panel0 + i);
  }
}

// Row i's nearest centroid from its products with every centroid (and, for L2, the norms),
// exactly as the CPU decides (dedup/kmeans.cpp assign_nearest): the first centroid's score is
// the start, a later one replaces it only when strictly better, so a NaN first score keeps
// centroid 0 (with a NaN score) and NaN scores elsewhere never win. L2 distances are clamped
// at 0. Labels and scores go to out_labels / out_scores (the tile's rows), and the runner-up's
// score (unclamped; -FLT_MAX or FLT_MAX when there is none) to seconds, for the host's
// near-tie check (dedup/kmeans.h NearestCentroid::decide_from_top_two).
__global__ void nearest_centroid(const float* tile, const float* x, int64_t d, const float* norms,
                                 int64_t k, bool inner_product, int64_t* labels, float* scores,
                                 float* seconds) {
  const int64_t i = blockIdx.x;
  float x_norm = 0;
  if (!inner_product) {
    float part = 0;
    for (int64_t c = threadIdx.x; c < d; c += blockDim.x) {
      const float v = x[i * d + c];
      part += v * v;
    }
    __shared__ float sum[kThreads];
    sum[threadIdx.x] = part;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) sum[threadIdx.x] += sum[threadIdx.x + half];
      __syncthreads();
    }
    x_norm = sum[0];
  }
  const float* row = tile + i * k;
  // Distances are negated so that "largest" serves both.
  auto score = [&](int64_t c) {
    return inner_product ? row[c] : -(x_norm + norms[c] - 2 * row[c]);
  };
  float v = -FLT_MAX, v2 = -FLT_MAX;
  int64_t j = LLONG_MAX;
  for (int64_t c = threadIdx.x; c < k; c += blockDim.x) {
    const float s = score(c);
    if (s == s) offer(s, c, v, j, v2);  // NaN never wins
  }
  reduce_top_two(v, j, v2);
  if (threadIdx.x == 0) {
    seconds[i] = inner_product ? v2 : -v2;
    const float first = score(0);
    if (first != first || j == LLONG_MAX) {
      labels[i] = 0;
      scores[i] = inner_product ? first : -first;
    } else {
      labels[i] = j;
      const float s = inner_product ? v : -v;
      scores[i] = inner_product ? s : (s < 0.0f ? 0.0f : s);
    }
  }
}

__global__ void row_norms(const float* m, int64_t rows, int64_t d, float* norms) {
  const int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (int64_t c = 0; c < d; ++c) s += m[r * d + c] * m[r * d + c];
  norms[r] = s;
}

unsigned grid(int64_t threads, int per_block) {
  return static_cast<unsigned>((threads + per_block - 1) / per_block);
}

bool fits_int(size_t v) { return v <= static_cast<size_t>(INT_MAX); }

}  // namespace

bool max_earlier_similarity(int device, const float* x, size_t n, size_t d, size_t block,
                            size_t device_bytes, float* max_similarity, uint32_t* matched,
                            float* second, ProductStats* stats, std::string& error) {
  if (n > static_cast<size_t>(UINT32_MAX)) {
    error = "more than 2^32 rows: matched rows are 32-bit, as the CPU pruner's";
    return false;
  }
  if (!fits_int(d)) {
    error = "more than 2^31 dimensions";
    return false;
  }
  Context* c = context_for(device, error);
  if (!c) return false;
  const SimilarityPlan plan = plan_max_similarity(n, d, block, budget_bytes(*c, device_bytes));
  if (plan.panel == 0) {
    error = "too little device memory for one block of rows";
    return false;
  }
  const size_t b = plan.block;
  const size_t panel = plan.panel;
  HostInput input(*c, x, n * d * sizeof(float));
  if (failed(*c, c->buffers[kPanel].reserve(panel * d * sizeof(float)), error) ||
      failed(*c, c->buffers[kBest].reserve(panel * sizeof(float)), error) ||
      failed(*c, c->buffers[kMatched].reserve(panel * sizeof(uint32_t)), error) ||
      failed(*c, c->buffers[kSecond].reserve(panel * sizeof(float)), error) ||
      failed(*c, c->buffers[kProducts].reserve(b * b * sizeof(float)), error) ||
      (panel < n && (failed(*c, c->buffers[kRows0].reserve(b * d * sizeof(float)), error) ||
                     failed(*c, c->buffers[kRows1].reserve(b * d * sizeof(float)), error))) ||
      !reserve_staging(*c, input, b * d * sizeof(float), error)) {
    return false;
  }
  const size_t panel_blocks = (panel + b - 1) / b;
  while (c->panel_events.size() < panel_blocks) {
    cudaEvent_t e;
    if (failed(*c, cudaEventCreateWithFlags(&e, cudaEventDisableTiming), error)) return false;
    c->panel_events.push_back(e);
  }
  float* dpanel = c->buffers[kPanel].as<float>();
  float* best = c->buffers[kBest].as<float>();
  uint32_t* dmatched = c->buffers[kMatched].as<uint32_t>();
  float* dsecond = c->buffers[kSecond].as<float>();
  float* tile = c->buffers[kProducts].as<float>();
  const float one = 1.0f, zero = 0.0f;
  // tile^T (columns x rows) = X[c0..]^T X[r0..] in cuBLAS's column-major view (x is d x n),
  // so row i of the tile (its products with the columns) is contiguous; then the fold.
  auto product = [&](const float* columns_at, size_t c0, size_t columns, const float* rows_at,
                     size_t r0, size_t rows, size_t p0) {
    if (failed(*c,
               cublasSgemm(c->blas, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(columns),
                           static_cast<int>(rows), static_cast<int>(d), &one, columns_at,
                           static_cast<int>(d), rows_at, static_cast<int>(d), &zero, tile,
                           static_cast<int>(columns)),
               error)) {
      return false;
    }
    fold_earlier_max<<<static_cast<unsigned>(rows), kThreads, 0, c->compute>>>(
        tile, static_cast<int64_t>(columns), static_cast<int64_t>(r0), static_cast<int64_t>(c0),
        static_cast<int64_t>(p0), best, dmatched, dsecond);
    return !failed(*c, cudaGetLastError(), error);
  };
  size_t tiles = 0;
  for (size_t p0 = 0; p0 < n; p0 += panel) {
    const size_t prows = std::min(panel, n - p0);
    const size_t pblocks = (prows + b - 1) / b;
    // The panel's row blocks, each with its event: block r's copy overlaps earlier products.
    for (size_t r = 0; r < pblocks; ++r) {
      const size_t rows = std::min(b, prows - r * b);
      if (!input.upload(dpanel + r * b * d, x + (p0 + r * b) * d, rows * d * sizeof(float),
                        error) ||
          failed(*c, cudaEventRecord(c->panel_events[r], c->copy), error)) {
        return false;
      }
    }
    init_running<<<grid(static_cast<int64_t>(prows), 256), 256, 0, c->compute>>>(
        best, dmatched, dsecond, static_cast<int64_t>(p0), static_cast<int64_t>(prows));
    if (failed(*c, cudaGetLastError(), error)) return false;
    // Earlier rows (only when the cluster does not fit), streamed through two buffers a block
    // at a time, in ascending order, against the whole panel.
    if (p0 > 0 &&
        failed(*c, cudaStreamWaitEvent(c->compute, c->panel_events[pblocks - 1], 0), error)) {
      return false;
    }
    for (size_t c0 = 0, t = 0; c0 < p0; c0 += b, ++t) {
      const int s = static_cast<int>(t % 2);
      float* buffer = c->buffers[s == 0 ? kRows0 : kRows1].as<float>();
      const size_t columns = std::min(b, p0 - c0);
      if (failed(*c, cudaStreamWaitEvent(c->copy, c->used[s], 0), error) ||
          !input.upload(buffer, x + c0 * d, columns * d * sizeof(float), error) ||
          failed(*c, cudaEventRecord(c->copied[s], c->copy), error) ||
          failed(*c, cudaStreamWaitEvent(c->compute, c->copied[s], 0), error)) {
        return false;
      }
      for (size_t r0 = p0; r0 < p0 + prows; r0 += b) {
        if (!product(buffer, c0, columns, dpanel + (r0 - p0) * d, r0, std::min(b, p0 + prows - r0),
                     p0)) {
          return false;
        }
        ++tiles;
      }
      if (failed(*c, cudaEventRecord(c->used[s], c->compute), error)) return false;
    }
    // The panel's own rows against each other, column blocks ascending, the diagonal last.
    for (size_t r0 = p0; r0 < p0 + prows; r0 += b) {
      const size_t rows = std::min(b, p0 + prows - r0);
      // Row block r's copy overlaps the products of the blocks before it.
      if (failed(*c, cudaStreamWaitEvent(c->compute, c->panel_events[(r0 - p0) / b], 0), error)) {
        return false;
      }
      for (size_t c0 = p0; c0 <= r0; c0 += b) {
        if (!product(dpanel + (c0 - p0) * d, c0, std::min(b, r0 + rows - c0),
                     dpanel + (r0 - p0) * d, r0, rows, p0)) {
          return false;
        }
        ++tiles;
      }
    }
    if (failed(*c,
               cudaMemcpyAsync(max_similarity + p0, best, prows * sizeof(float),
                               cudaMemcpyDeviceToHost, c->compute),
               error) ||
        failed(*c,
               cudaMemcpyAsync(matched + p0, dmatched, prows * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost, c->compute),
               error) ||
        failed(*c,
               cudaMemcpyAsync(second + p0, dsecond, prows * sizeof(float),
                               cudaMemcpyDeviceToHost, c->compute),
               error) ||
        failed(*c, cudaStreamSynchronize(c->compute), error)) {
      return false;
    }
  }
  if (failed(*c, cudaStreamSynchronize(c->copy), error)) return false;
  if (stats) {
    stats->tiles = tiles;
    stats->passes = plan.passes;
    stats->host_memory = input.mode();
  }
  return true;
}

bool assign_nearest(int device, const float* x, size_t n, size_t d, const float* centroids,
                    size_t k, bool inner_product, size_t device_bytes, int64_t* labels,
                    float* scores, float* seconds, ProductStats* stats, std::string& error) {
  if (!fits_int(d) || !fits_int(k)) {
    error = "more than 2^31 dimensions or centroids";
    return false;
  }
  Context* c = context_for(device, error);
  if (!c) return false;
  const size_t tile_rows = plan_assignment_tile(n, d, k, budget_bytes(*c, device_bytes));
  if (tile_rows == 0) {
    error = "too little device memory for the centroids and one row";
    return false;
  }
  HostInput input(*c, x, n * d * sizeof(float));
  // Per slot: the tile's labels, then its scores, then its runner-up scores.
  const size_t out_bytes = tile_rows * (sizeof(int64_t) + 2 * sizeof(float));
  if (failed(*c, c->buffers[kCentroids].reserve(k * d * sizeof(float)), error) ||
      failed(*c, c->buffers[kNorms].reserve(k * sizeof(float)), error) ||
      failed(*c, c->buffers[kRows0].reserve(tile_rows * d * sizeof(float)), error) ||
      failed(*c, c->buffers[kRows1].reserve(tile_rows * d * sizeof(float)), error) ||
      failed(*c, c->buffers[kProducts].reserve(tile_rows * k * sizeof(float)), error) ||
      failed(*c, c->buffers[kOut0].reserve(out_bytes), error) ||
      failed(*c, c->buffers[kOut1].reserve(out_bytes), error) ||
      failed(*c, c->results[0].reserve(out_bytes), error) ||
      failed(*c, c->results[1].reserve(out_bytes), error) ||
      !reserve_staging(*c, input, tile_rows * d * sizeof(float), error)) {
    return false;
  }
  float* dcent = c->buffers[kCentroids].as<float>();
  float* norms = c->buffers[kNorms].as<float>();
  float* tile = c->buffers[kProducts].as<float>();
  if (failed(*c,
             cudaMemcpyAsync(dcent, centroids, k * d * sizeof(float), cudaMemcpyHostToDevice,
                             c->compute),
             error)) {
    return false;
  }
  row_norms<<<grid(static_cast<int64_t>(k), 128), 128, 0, c->compute>>>(
      dcent, static_cast<int64_t>(k), static_cast<int64_t>(d), norms);
  if (failed(*c, cudaGetLastError(), error)) return false;
  const size_t tiles = (n + tile_rows - 1) / tile_rows;
  // A slot's results wait in pinned memory until the slot is next used (or the end), then go
  // to the caller's arrays: the host never waits on the tile it has just queued.
  size_t pending[2] = {SIZE_MAX, SIZE_MAX};
  auto collect = [&](int s) {
    if (pending[s] == SIZE_MAX) return true;
    if (failed(*c, cudaEventSynchronize(c->out[s]), error)) return false;
    const size_t r0 = pending[s] * tile_rows;
    const size_t rows = std::min(tile_rows, n - r0);
    std::memcpy(labels + r0, c->results[s].p, rows * sizeof(int64_t));
    const char* results = c->results[s].as<char>() + tile_rows * sizeof(int64_t);
    std::memcpy(scores + r0, results, rows * sizeof(float));
    std::memcpy(seconds + r0, results + tile_rows * sizeof(float), rows * sizeof(float));
    pending[s] = SIZE_MAX;
    return true;
  };
  bool ok = true;
  for (size_t t = 0; t < tiles && ok; ++t) {
    const int s = static_cast<int>(t % 2);
    const size_t r0 = t * tile_rows;
    const size_t rows = std::min(tile_rows, n - r0);
    float* buffer = c->buffers[s == 0 ? kRows0 : kRows1].as<float>();
    char* dout = c->buffers[s == 0 ? kOut0 : kOut1].as<char>();
    auto* dlabels = reinterpret_cast<int64_t*>(dout);
    auto* dscores = reinterpret_cast<float*>(dout + tile_rows * sizeof(int64_t));
    float* dseconds = dscores + tile_rows;
    const float one = 1.0f, zero = 0.0f;
    // The buffer is rewritten once the tile two back has been used.
    ok = collect(s) && !failed(*c, cudaStreamWaitEvent(c->copy, c->used[s], 0), error) &&
         input.upload(buffer, x + r0 * d, rows * d * sizeof(float), error) &&
         !failed(*c, cudaEventRecord(c->copied[s], c->copy), error) &&
         !failed(*c, cudaStreamWaitEvent(c->compute, c->copied[s], 0), error) &&
         !failed(*c,
                 cublasSgemm(c->blas, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(k),
                             static_cast<int>(rows), static_cast<int>(d), &one, dcent,
                             static_cast<int>(d), buffer, static_cast<int>(d), &zero, tile,
                             static_cast<int>(k)),
                 error);
    if (!ok) break;
    nearest_centroid<<<static_cast<unsigned>(rows), kThreads, 0, c->compute>>>(
        tile, buffer, static_cast<int64_t>(d), norms, static_cast<int64_t>(k), inner_product,
        dlabels, dscores, dseconds);
    ok = !failed(*c, cudaGetLastError(), error) &&
         !failed(*c, cudaEventRecord(c->used[s], c->compute), error) &&
         !failed(
             *c,
             cudaMemcpyAsync(c->results[s].p, dout, out_bytes, cudaMemcpyDeviceToHost, c->compute),
             error) &&
         !failed(*c, cudaEventRecord(c->out[s], c->compute), error);
    if (ok) pending[s] = t;
  }
  ok = ok && collect(0) && collect(1);
  // Nothing may be in flight into the caller's memory or the staging buffers when this returns.
  std::string sync_error;
  if (failed(*c, cudaStreamSynchronize(c->copy), sync_error) ||
      failed(*c, cudaStreamSynchronize(c->compute), sync_error)) {
    if (ok) error = sync_error;
    ok = false;
  }
  if (ok && stats) {
    stats->tiles = tiles;
    stats->passes = 1;
    stats->host_memory = input.mode();
  }
  return ok;
}

bool sgemm_tflops(int device, int m, int n, int k, int reps, double& tflops, std::string& error) {
  Context* c = context_for(device, error);
  if (!c) return false;
  const size_t sa = static_cast<size_t>(m) * k, sb = static_cast<size_t>(k) * n,
               sc = static_cast<size_t>(m) * n;
  if (failed(*c, c->buffers[kRows0].reserve(sa * sizeof(float)), error) ||
      failed(*c, c->buffers[kRows1].reserve(sb * sizeof(float)), error) ||
      failed(*c, c->buffers[kProducts].reserve(sc * sizeof(float)), error)) {
    return false;
  }
  float* a = c->buffers[kRows0].as<float>();
  float* b = c->buffers[kRows1].as<float>();
  float* out = c->buffers[kProducts].as<float>();
  cudaEvent_t start = nullptr, stop = nullptr;
  struct Events {
    cudaEvent_t& start;
    cudaEvent_t& stop;
    ~Events() {
      if (start) cudaEventDestroy(start);
      if (stop) cudaEventDestroy(stop);
    }
  } events{start, stop};
  if (failed(*c, cudaMemsetAsync(a, 0, sa * sizeof(float), c->compute), error) ||
      failed(*c, cudaMemsetAsync(b, 0, sb * sizeof(float), c->compute), error) ||
      failed(*c, cudaEventCreate(&start), error) || failed(*c, cudaEventCreate(&stop), error)) {
    return false;
  }
  const float one = 1.0f, zero = 0.0f;
  double best = 0;
  for (int rep = 0; rep <= reps; ++rep) {  // the first is a warm-up
    if (failed(*c, cudaEventRecord(start, c->compute), error) ||
        failed(*c,
               cublasSgemm(c->blas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, a, k, b, k, &zero, out,
                           m),
               error) ||
        failed(*c, cudaEventRecord(stop, c->compute), error) ||
        failed(*c, cudaEventSynchronize(stop), error)) {
      return false;
    }
    float ms = 0;
    if (failed(*c, cudaEventElapsedTime(&ms, start, stop), error)) return false;
    if (rep > 0 && ms > 0) best = std::max(best, 2.0 * m * n * k / (ms * 1e-3) / 1e12);
  }
  tflops = best;
  return true;
}

}  // namespace winnow::gpu::detail
