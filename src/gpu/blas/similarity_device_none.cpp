// similarity_device.h in a build without CUDA.
#include "gpu/blas/similarity_device.h"

namespace winnow::gpu::detail {

namespace {
bool no_cuda(std::string& error) {
  error = "this winnow was built without CUDA";
  return false;
}
}  // namespace

bool max_earlier_similarity(int, const float*, size_t, size_t, size_t, size_t, float*, uint32_t*,
                            float*, ProductStats*, std::string& error) {
  return no_cuda(error);
}

bool assign_nearest(int, const float*, size_t, size_t, const float*, size_t, bool, size_t, int64_t*,
                    float*, float*, ProductStats*, std::string& error) {
  return no_cuda(error);
}

bool sgemm_tflops(int, int, int, int, int, double&, std::string& error) { return no_cuda(error); }

}  // namespace winnow::gpu::detail
