#pragma once
// Semantic dedup's dense products on a CUDA device with cuBLAS: the within-cluster max-cosine
// blocks (dedup/cluster_pruner.h, NeMo's rule) and k-means' nearest-centroid assignment
// (dedup/kmeans.h assign_nearest). Plain interface; the kernels are in similarity_device.cu.
// Each thread reuses one context per device (cuBLAS handle, streams, buffers) across calls.
//
// These are float products: cuBLAS sums in another order than OpenBLAS, so results agree with
// the CPU's float products within 1e-5 (tests/gpu/blas/gpu_similarity_gpu_test.cpp), not bit
// for bit. So each call also gives, per row, the runner-up's value, and semantic dedup settles
// every decision whose values are within the float error of each other or of a threshold in
// double on the host (dedup/semantic_device.h), by the rule the CPU path follows: the
// decisions are the CPU's, bit for bit.
//
// The kernels and cuBLAS are a module loaded on the first call (products_loader.cpp): cuBLAS is
// ~700 MB of shared libraries that every process linking it would load at start.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "gpu/blas/product_options.h"

namespace winnow::gpu {

// For each row i of `x` (n rows of d floats, unit length, rank order): max(0, max over j < i
// of x_i . x_j) and the first such j (i itself when no earlier row is above 0). Rows are
// multiplied in blocks of `block` x `block` (cuBLAS sgemm; at most 16,384), each block's maxima
// folded into the rows' running maxima by one kernel while the block is on the device. At most
// 2^32 rows (matched rows are 32-bit, as dedup/cluster_pruner.h's). `second`, when given: each
// row's largest similarity to an earlier row other than its match (0 floor).
Status max_earlier_similarity(int device, const float* x, size_t n, size_t d, size_t block,
                              std::vector<float>& max_similarity, std::vector<uint32_t>& matched,
                              const ProductOptions& options = {}, ProductStats* stats = nullptr,
                              std::vector<float>* second = nullptr);

// Each row's nearest centroid, decided as dedup/kmeans.h assign_nearest decides: the largest
// inner product, or with inner_product false the smallest squared L2 distance (scores are then
// distances, clamped at 0); ties go to the smaller index; a row whose first score is NaN gets
// centroid 0 (and a NaN score), and NaN scores never win. Rows stream through the device in
// double-buffered tiles. `seconds`, when given: the runner-up centroid's score (unclamped;
// -FLT_MAX, or FLT_MAX for distances, with one centroid).
Status assign_nearest(int device, const float* x, size_t n, size_t d, const float* centroids,
                      size_t k, bool inner_product, std::vector<int64_t>& labels,
                      std::vector<float>& scores, const ProductOptions& options = {},
                      ProductStats* stats = nullptr, std::vector<float>* seconds = nullptr);

// cuBLAS sgemm's rate on this device for m x n x k products (TFLOP/s, best of `reps`): the
// baseline the benchmark states the kernels against.
Result<double> sgemm_tflops(int device, int m, int n, int k, int reps);

}  // namespace winnow::gpu
