#pragma once
// The CUDA side of gpu_similarity.h: similarity_device.cu (linked in the GPU-only build, in the
// module libwinnow_gpu_products.so in the full build, reached through products_loader.cpp),
// or similarity_device_none.cpp without CUDA. Errors come back as text: nvcc compiles the .cu,
// which includes no fmt.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu/blas/product_options.h"

namespace winnow::gpu::detail {

// device_bytes: the device memory a call may use (0: nine tenths of what is free).
// second: each row's largest similarity to an earlier row other than its match (0 floor), and
// seconds below the runner-up centroid's score: what the host needs to tell a near tie.
bool max_earlier_similarity(int device, const float* x, size_t n, size_t d, size_t block,
                            size_t device_bytes, float* max_similarity, uint32_t* matched,
                            float* second, ProductStats* stats, std::string& error);
bool assign_nearest(int device, const float* x, size_t n, size_t d, const float* centroids,
                    size_t k, bool inner_product, size_t device_bytes, int64_t* labels,
                    float* scores, float* seconds, ProductStats* stats, std::string& error);
bool sgemm_tflops(int device, int m, int n, int k, int reps, double& tflops, std::string& error);

// The module libwinnow_gpu_products.so (products_module.cpp) hands these out through one C
// entry point, kGpuProductsEntry; products_loader.cpp defines the functions above as calls
// through it, so only a process that runs semantic dedup on a GPU loads cuBLAS.
struct ProductsApi {
  decltype(&max_earlier_similarity) max_similarity;
  decltype(&assign_nearest) assign;
  decltype(&sgemm_tflops) sgemm;
};
inline constexpr const char* kGpuProductsEntry = "winnow_gpu_products_api";

}  // namespace winnow::gpu::detail
