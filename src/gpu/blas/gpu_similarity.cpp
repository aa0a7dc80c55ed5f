#include "gpu/blas/gpu_similarity.h"

#include "gpu/blas/similarity_device.h"

namespace winnow::gpu {

Status max_earlier_similarity(int device, const float* x, size_t n, size_t d, size_t block,
                              std::vector<float>& max_similarity, std::vector<uint32_t>& matched,
                              const ProductOptions& options, ProductStats* stats,
                              std::vector<float>* second) {
  max_similarity.assign(n, 0.0f);
  matched.resize(n);
  std::vector<float> own_second;
  std::vector<float>& seconds = second ? *second : own_second;
  seconds.assign(n, 0.0f);
  if (n == 0) return Status::ok();
  std::string error;
  if (!detail::max_earlier_similarity(device, x, n, d, block == 0 ? 1024 : block,
                                      options.device_bytes, max_similarity.data(), matched.data(),
                                      seconds.data(), stats, error)) {
    return Status::errorf("GPU max similarity on device {}: {}", device, error);
  }
  return Status::ok();
}

Status assign_nearest(int device, const float* x, size_t n, size_t d, const float* centroids,
                      size_t k, bool inner_product, std::vector<int64_t>& labels,
                      std::vector<float>& scores, const ProductOptions& options,
                      ProductStats* stats, std::vector<float>* seconds) {
  labels.assign(n, -1);
  scores.assign(n, 0.0f);
  std::vector<float> own_seconds;
  std::vector<float>& runner_up = seconds ? *seconds : own_seconds;
  runner_up.assign(n, 0.0f);
  if (n == 0 || k == 0) return Status::ok();
  std::string error;
  if (!detail::assign_nearest(device, x, n, d, centroids, k, inner_product, options.device_bytes,
                              labels.data(), scores.data(), runner_up.data(), stats, error)) {
    return Status::errorf("GPU k-means assignment on device {}: {}", device, error);
  }
  return Status::ok();
}

Result<double> sgemm_tflops(int device, int m, int n, int k, int reps) {
  double tflops = 0;
  std::string error;
  if (!detail::sgemm_tflops(device, m, n, k, reps, tflops, error)) {
    return Status::errorf("cuBLAS sgemm on device {}: {}", device, error);
  }
  return tflops;
}

}  // namespace winnow::gpu
