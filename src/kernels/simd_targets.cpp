#include "kernels/simd_targets.h"

#include <hwy/highway.h>
#include <hwy/targets.h>

namespace winnow {

std::vector<SimdTarget> available_simd_targets() {
  std::vector<SimdTarget> out;
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    out.push_back({target, hwy::TargetName(target)});
  }
  return out;
}

std::string current_simd_target() {
  std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  return targets.empty() ? "none" : hwy::TargetName(targets.front());
}

void force_simd_target(int64_t target) { hwy::SetSupportedTargetsForTest(target); }

}  // namespace winnow
