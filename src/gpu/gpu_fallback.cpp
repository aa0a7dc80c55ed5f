// The CPU-fallback line, shared by the CUDA and the CPU-only builds.
#include <fmt/format.h>

#include <atomic>
#include <cstdio>
#include <map>
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

namespace {
std::mutex g_retired_mutex;
std::map<int, std::string>& retired() {
  static std::map<int, std::string> devices;
  return devices;
}
}  // namespace

void retire_device(int device, std::string_view why) {
  std::lock_guard lock(g_retired_mutex);
  auto [it, inserted] = retired().emplace(device, std::string(why));
  if (!inserted) return;
  std::fprintf(stderr,
               "winnow: GPU %d retired after a sticky CUDA error (%s): its work runs on the CPU\n",
               device, it->second.c_str());
}

std::string retired_reason(int device) {
  std::lock_guard lock(g_retired_mutex);
  auto it = retired().find(device);
  return it == retired().end() ? std::string() : it->second;
}

}  // namespace winnow::gpu
