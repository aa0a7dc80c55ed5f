#pragma once
// The options and statistics of gpu_similarity.h's calls, apart so that similarity_device.cu
// (compiled by nvcc, which cannot compile fmt) includes them without core/status.h.
#include <cstddef>
#include <string>

namespace winnow::gpu {

// How a call may use the device, and what it did.
struct ProductOptions {
  // Device memory a call may use (0: nine tenths of what is free when it starts). Rows beyond
  // it stream through two device buffers, so an input larger than the device works; tests
  // set it small to force the streamed paths.
  size_t device_bytes = 0;
};
struct ProductStats {
  size_t tiles = 0;   // products computed (sgemm + fold)
  size_t passes = 0;  // max similarity: resident panels (1 when the rows fit at once)
  // How the input reached the device: "registered read-only", "registered" (page-locked in
  // place), "already registered", or "staged" (copied through pinned buffers: registration
  // failed, e.g. a read-only mapping on a device without read-only registration).
  std::string host_memory;
};

}  // namespace winnow::gpu
