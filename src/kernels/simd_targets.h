#pragma once
// Run-time SIMD dispatch (highway): which variants this build has and this CPU runs, and, for
// tests and benchmarks, forcing one so that every variant can be checked against the scalar
// reference.
#include <cstdint>
#include <string>
#include <vector>

namespace winnow {

struct SimdTarget {
  int64_t id;        // highway's target bit
  std::string name;  // "AVX2", "SSE4", "EMU128", ...
};

// Targets compiled into this binary that the CPU supports, best first.
std::vector<SimdTarget> available_simd_targets();
// The target dispatch picks now.
std::string current_simd_target();
// Restricts dispatch to `target` (one of available_simd_targets()); reset with 0.
void force_simd_target(int64_t target);

}  // namespace winnow
