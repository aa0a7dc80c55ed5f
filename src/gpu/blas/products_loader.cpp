// similarity_device.h's functions in the full build with CUDA: calls into the module
// libwinnow_gpu_products.so (cuBLAS and the kernels), loaded on the first call. cuBLAS is
// ~700 MB of shared libraries: linked into the winnow command it would be mapped at every
// start (bench/README.md, "Fixed cost per process"), for a path only semantic dedup on a GPU
// takes.
#include <mutex>

#include "core/codec_module.h"
#include "gpu/blas/similarity_device.h"

namespace winnow::gpu::detail {

namespace {

const ProductsApi* products(std::string& error) {
  static std::once_flag once;
  static const ProductsApi* api = nullptr;
  static std::string why;
  std::call_once(once, [] {
    using Entry = const ProductsApi* (*)();
    auto entry = reinterpret_cast<Entry>(codec_module_symbol(
        CodecModule::kGpuProducts, kGpuProductsEntry, &why));
    if (entry) api = entry();
  });
  if (!api) error = "the GPU products module cannot be loaded: " + why;
  return api;
}

}  // namespace

bool max_earlier_similarity(int device, const float* x, size_t n, size_t d, size_t block,
                            size_t device_bytes, float* max_similarity, uint32_t* matched,
                            float* second, ProductStats* stats, std::string& error) {
  const ProductsApi* api = products(error);
  return api && api->max_similarity(device, x, n, d, block, device_bytes, max_similarity,
                                            matched, second, stats, error);
}

bool assign_nearest(int device, const float* x, size_t n, size_t d, const float* centroids,
                    size_t k, bool inner_product, size_t device_bytes, int64_t* labels,
                    float* scores, float* seconds, ProductStats* stats, std::string& error) {
  const ProductsApi* api = products(error);
  return api && api->assign(device, x, n, d, centroids, k, inner_product, device_bytes,
                                    labels, scores, seconds, stats, error);
}

bool sgemm_tflops(int device, int m, int n, int k, int reps, double& tflops, std::string& error) {
  const ProductsApi* api = products(error);
  return api && api->sgemm(device, m, n, k, reps, tflops, error);
}

}  // namespace winnow::gpu::detail
