// Dense products for semantic dedup on cuBLAS (full FP32: the default math mode, no TF32), each
// followed by one kernel that folds the product tile into per-row results while it is on the
// device, so only n values per row block come back, never the n x n products.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <vector>

#include "gpu/blas/similarity_device.h"

namespace winnow::gpu::detail {

namespace {

constexpr int kThreads = 128;

// Device buffers, handle and streams of one call, released whichever way it ends.
struct Session {
  cublasHandle_t blas = nullptr;
  cudaStream_t compute = nullptr;
  cudaStream_t copy = nullptr;
  std::vector<void*> buffers;
  std::vector<cudaEvent_t> events;
  std::vector<const void*> registered;
  ~Session() {
    if (compute) cudaStreamSynchronize(compute);
    if (copy) cudaStreamSynchronize(copy);
    for (void* p : buffers) cudaFree(p);
    for (cudaEvent_t e : events) cudaEventDestroy(e);
    for (const void* p : registered) cudaHostUnregister(const_cast<void*>(p));
    if (blas) cublasDestroy(blas);
    if (compute) cudaStreamDestroy(compute);
    if (copy) cudaStreamDestroy(copy);
  }
  template <typename T>
  T* alloc(size_t count) {
    void* p = nullptr;
    if (cudaMalloc(&p, std::max<size_t>(1, count) * sizeof(T)) != cudaSuccess) return nullptr;
    buffers.push_back(p);
    return static_cast<T*>(p);
  }
  // Pins host memory for truly asynchronous copies; unpinned memory still copies correctly.
  void pin(const void* p, size_t bytes) {
    if (cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterReadOnly) == cudaSuccess) {
      registered.push_back(p);
    } else {
      cudaGetLastError();
    }
  }
};

bool failed(cudaError_t e, std::string& error) {
  if (e == cudaSuccess) return false;
  error = cudaGetErrorString(e);
  cudaGetLastError();
  return true;
}

bool failed(cublasStatus_t s, std::string& error) {
  if (s == CUBLAS_STATUS_SUCCESS) return false;
  error = std::string("cuBLAS: ") + cublasGetStatusString(s);
  return true;
}

bool open(Session& s, int device, std::string& error) {
  return !failed(cudaSetDevice(device), error) &&
         !failed(cudaStreamCreateWithFlags(&s.compute, cudaStreamNonBlocking), error) &&
         !failed(cudaStreamCreateWithFlags(&s.copy, cudaStreamNonBlocking), error) &&
         !failed(cublasCreate(&s.blas), error) &&
         !failed(cublasSetStream(s.blas, s.compute), error);
}

// Largest value first, then the smaller index: the CPU's "first of equals".
__device__ __forceinline__ bool better(float v, int j, float bv, int bj) {
  return v > bv || (v == bv && j < bj);
}

// Block-wide arg-best of (v, j) pairs; the result in thread 0.
__device__ void reduce_best(float& v, int& j) {
  __shared__ float sv[kThreads];
  __shared__ int sj[kThreads];
  sv[threadIdx.x] = v;
  sj[threadIdx.x] = j;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      const int o = threadIdx.x + half;
      if (better(sv[o], sj[o], sv[threadIdx.x], sj[threadIdx.x])) {
        sv[threadIdx.x] = sv[o];
        sj[threadIdx.x] = sj[o];
      }
    }
    __syncthreads();
  }
  v = sv[0];
  j = sj[0];
}

// Row r0 + i's maximum over the tile's columns c0 + j that rank before it, folded into its
// running maximum (column blocks come in increasing order, so a strict > keeps the first).
__global__ void fold_earlier_max(const float* tile, int columns, int r0, int c0, float* best,
                                 uint32_t* matched) {
  const int i = blockIdx.x;
  const int row = r0 + i;
  const int limit = min(columns, row - c0);
  float v = -FLT_MAX;
  int j = INT_MAX;
  for (int c = threadIdx.x; c < limit; c += blockDim.x) {
    const float s = tile[static_cast<size_t>(i) * columns + c];
    if (s > v) {
      v = s;
      j = c;
    }
  }
  reduce_best(v, j);
  if (threadIdx.x == 0 && j != INT_MAX && v > best[row]) {
    best[row] = v;
    matched[row] = static_cast<uint32_t>(c0 + j);
  }
}

__global__ void init_running(float* best, uint32_t* matched, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    best[i] = 0.0f;  // NeMo: never below 0
    matched[i] = static_cast<uint32_t>(i);
  }
}

// Row i's nearest centroid from its products with every centroid (and, for L2, the norms).
__global__ void nearest_centroid(const float* tile, const float* x, int d, const float* norms,
                                 int k, bool inner_product, int64_t* labels, float* scores) {
  const int i = blockIdx.x;
  float x_norm = 0;
  if (!inner_product) {
    float part = 0;
    for (int c = threadIdx.x; c < d; c += blockDim.x) {
      const float v = x[static_cast<size_t>(i) * d + c];
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
  float v = -FLT_MAX;
  int j = INT_MAX;
  for (int c = threadIdx.x; c < k; c += blockDim.x) {
    const float dot = tile[static_cast<size_t>(i) * k + c];
    // Distances are negated so that "largest" serves both.
    const float s = inner_product ? dot : -(x_norm - 2 * dot + norms[c]);
    if (s > v) {
      v = s;
      j = c;
    }
  }
  reduce_best(v, j);
  if (threadIdx.x == 0) {
    labels[i] = j;
    scores[i] = inner_product ? v : -v;
  }
}

__global__ void row_norms(const float* m, int rows, int d, float* norms) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (int c = 0; c < d; ++c)
    s += m[static_cast<size_t>(r) * d + c] * m[static_cast<size_t>(r) * d + c];
  norms[r] = s;
}

}  // namespace

bool max_earlier_similarity(int device, const float* x, size_t n, size_t d, size_t block,
                            float* max_similarity, uint32_t* matched, std::string& error) {
  Session s;
  if (!open(s, device, error)) return false;
  const size_t b = std::min(block, n);
  float* dx = s.alloc<float>(n * d);
  float* tile = s.alloc<float>(b * b);
  float* best = s.alloc<float>(n);
  uint32_t* dmatched = s.alloc<uint32_t>(n);
  if (!dx || !tile || !best || !dmatched) {
    error = "out of device memory";
    return false;
  }
  // Row block r's copy (copy stream) overlaps the products of the blocks before it.
  s.pin(x, n * d * sizeof(float));
  const size_t blocks = (n + b - 1) / b;
  for (size_t r = 0; r < blocks; ++r) {
    cudaEvent_t copied;
    if (failed(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming), error)) return false;
    s.events.push_back(copied);
    const size_t rows = std::min(b, n - r * b);
    cudaMemcpyAsync(dx + r * b * d, x + r * b * d, rows * d * sizeof(float), cudaMemcpyHostToDevice,
                    s.copy);
    cudaEventRecord(copied, s.copy);
  }
  init_running<<<static_cast<unsigned>((n + 255) / 256), 256, 0, s.compute>>>(best, dmatched,
                                                                              static_cast<int>(n));
  const float one = 1.0f, zero = 0.0f;
  for (size_t r = 0; r < blocks; ++r) {
    cudaStreamWaitEvent(s.compute, s.events[r], 0);
    const size_t r0 = r * b;
    const size_t rows = std::min(b, n - r0);
    for (size_t c0 = 0; c0 < r0 + rows; c0 += b) {
      const size_t columns = std::min(b, r0 + rows - c0);
      // Column-major view: x is d x n; tile^T (columns x rows) = X[c0..]^T X[r0..], so row i of
      // the tile (its products with the columns) is contiguous.
      if (failed(cublasSgemm(s.blas, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(columns),
                             static_cast<int>(rows), static_cast<int>(d), &one, dx + c0 * d,
                             static_cast<int>(d), dx + r0 * d, static_cast<int>(d), &zero, tile,
                             static_cast<int>(columns)),
                 error)) {
        return false;
      }
      fold_earlier_max<<<static_cast<unsigned>(rows), kThreads, 0, s.compute>>>(
          tile, static_cast<int>(columns), static_cast<int>(r0), static_cast<int>(c0), best,
          dmatched);
    }
  }
  cudaMemcpyAsync(max_similarity, best, n * sizeof(float), cudaMemcpyDeviceToHost, s.compute);
  cudaMemcpyAsync(matched, dmatched, n * sizeof(uint32_t), cudaMemcpyDeviceToHost, s.compute);
  return !failed(cudaStreamSynchronize(s.compute), error) && !failed(cudaGetLastError(), error);
}

bool assign_nearest(int device, const float* x, size_t n, size_t d, const float* centroids,
                    size_t k, bool inner_product, int64_t* labels, float* scores,
                    std::string& error) {
  Session s;
  if (!open(s, device, error)) return false;
  // Rows per tile: the products of a tile stay under 64 M floats (256 MB).
  const size_t tile_rows = std::max<size_t>(1, std::min(n, (size_t{64} << 20) / std::max(k, d)));
  float* dcent = s.alloc<float>(k * d);
  float* norms = s.alloc<float>(k);
  float* dx = s.alloc<float>(2 * tile_rows * d);  // two tiles: the next one's copy overlaps
  float* tile = s.alloc<float>(tile_rows * k);
  int64_t* dlabels = s.alloc<int64_t>(n);
  float* dscores = s.alloc<float>(n);
  if (!dcent || !norms || !dx || !tile || !dlabels || !dscores) {
    error = "out of device memory";
    return false;
  }
  s.pin(x, n * d * sizeof(float));
  cudaMemcpyAsync(dcent, centroids, k * d * sizeof(float), cudaMemcpyHostToDevice, s.compute);
  row_norms<<<static_cast<unsigned>((k + 127) / 128), 128, 0, s.compute>>>(
      dcent, static_cast<int>(k), static_cast<int>(d), norms);
  const size_t tiles = (n + tile_rows - 1) / tile_rows;
  for (size_t t = 0; t < tiles; ++t) {
    cudaEvent_t copied, used;
    if (failed(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming), error) ||
        failed(cudaEventCreateWithFlags(&used, cudaEventDisableTiming), error)) {
      return false;
    }
    s.events.push_back(copied);
    s.events.push_back(used);
    const size_t r0 = t * tile_rows;
    const size_t rows = std::min(tile_rows, n - r0);
    float* buffer = dx + (t % 2) * tile_rows * d;
    // The buffer is free once the tile two back has been used.
    if (t >= 2) cudaStreamWaitEvent(s.copy, s.events[2 * (t - 2) + 1], 0);
    cudaMemcpyAsync(buffer, x + r0 * d, rows * d * sizeof(float), cudaMemcpyHostToDevice, s.copy);
    cudaEventRecord(copied, s.copy);
    cudaStreamWaitEvent(s.compute, copied, 0);
    const float one = 1.0f, zero = 0.0f;
    if (failed(cublasSgemm(s.blas, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(k),
                           static_cast<int>(rows), static_cast<int>(d), &one, dcent,
                           static_cast<int>(d), buffer, static_cast<int>(d), &zero, tile,
                           static_cast<int>(k)),
               error)) {
      return false;
    }
    nearest_centroid<<<static_cast<unsigned>(rows), kThreads, 0, s.compute>>>(
        tile, buffer, static_cast<int>(d), norms, static_cast<int>(k), inner_product, dlabels + r0,
        dscores + r0);
    cudaEventRecord(used, s.compute);
  }
  cudaMemcpyAsync(labels, dlabels, n * sizeof(int64_t), cudaMemcpyDeviceToHost, s.compute);
  cudaMemcpyAsync(scores, dscores, n * sizeof(float), cudaMemcpyDeviceToHost, s.compute);
  return !failed(cudaStreamSynchronize(s.compute), error) && !failed(cudaGetLastError(), error);
}

bool sgemm_tflops(int device, int m, int n, int k, int reps, double& tflops, std::string& error) {
  Session s;
  if (!open(s, device, error)) return false;
  float* a = s.alloc<float>(static_cast<size_t>(m) * k);
  float* b = s.alloc<float>(static_cast<size_t>(k) * n);
  float* c = s.alloc<float>(static_cast<size_t>(m) * n);
  if (!a || !b || !c) {
    error = "out of device memory";
    return false;
  }
  cudaMemsetAsync(a, 0, static_cast<size_t>(m) * k * sizeof(float), s.compute);
  cudaMemsetAsync(b, 0, static_cast<size_t>(k) * n * sizeof(float), s.compute);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  s.events.push_back(start);
  s.events.push_back(stop);
  const float one = 1.0f, zero = 0.0f;
  double best = 0;
  for (int rep = 0; rep <= reps; ++rep) {  // the first is a warm-up
    cudaEventRecord(start, s.compute);
    if (failed(
            cublasSgemm(s.blas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, a, k, b, k, &zero, c, m),
            error)) {
      return false;
    }
    cudaEventRecord(stop, s.compute);
    if (failed(cudaEventSynchronize(stop), error)) return false;
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (rep > 0 && ms > 0) best = std::max(best, 2.0 * m * n * k / (ms * 1e-3) / 1e12);
  }
  tflops = best;
  return true;
}

}  // namespace winnow::gpu::detail
