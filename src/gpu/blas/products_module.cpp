// The entry point of libwinnow_gpu_products.so: similarity_device.cu's functions, handed to
// products_loader.cpp in the process that loads the module (similarity_device.h ProductsApi).
#include "gpu/blas/similarity_device.h"

extern "C" __attribute__((visibility("default"))) const winnow::gpu::detail::ProductsApi*
winnow_gpu_products_api() {
  using namespace winnow::gpu::detail;
  static const ProductsApi api{&max_earlier_similarity, &assign_nearest, &sgemm_tflops};
  return &api;
}
