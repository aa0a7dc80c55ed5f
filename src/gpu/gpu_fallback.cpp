// The CPU-fallback line, shared by the CUDA and the CPU-only builds.
#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <mutex>

#include "gpu/gpu_runtime.h"

namespace winnow::gpu {

std::string cpu_fallback_message(std::string_view what, std::string_view reason) {
  return fmt::format("winnow: no usable GPU ({}): {} runs on the CPU", reason, what);
}

namespace {
std::atomic<bool> g_muted{false};
}  // namespace

void mute_cpu_fallback_note() { g_muted.store(true); }

void note_cpu_fallback(std::string_view what, std::string_view reason) {
  if (!built_with_cuda() || g_muted.load()) return;
  static std::once_flag once;
  std::call_once(once, [&] {
    std::string line = cpu_fallback_message(
        what, reason.empty() ? std::string_view(unavailable_reason()) : reason);
    std::fprintf(stderr, "%s\n", line.c_str());
  });
}

}  // namespace winnow::gpu
