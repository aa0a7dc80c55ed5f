#pragma once
// The CUDA side of gpu_similarity.h (similarity_device.cu; similarity_device_none.cpp without
// CUDA). Errors come back as text: nvcc compiles the .cu, which includes no fmt.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu/blas/product_options.h"

namespace winnow::gpu::detail {

// device_bytes: the device memory a call may use (0: nine tenths of what is free).
bool max_earlier_similarity(int device, const float* x, size_t n, size_t d, size_t block,
                            size_t device_bytes, float* max_similarity, uint32_t* matched,
                            ProductStats* stats, std::string& error);
bool assign_nearest(int device, const float* x, size_t n, size_t d, const float* centroids,
                    size_t k, bool inner_product, size_t device_bytes, int64_t* labels,
                    float* scores, ProductStats* stats, std::string& error);
bool sgemm_tflops(int device, int m, int n, int k, int reps, double& tflops, std::string& error);

}  // namespace winnow::gpu::detail
