#include "pipeline/device_placement.h"

#include <algorithm>
#include <cmath>

namespace winnow {

DevicePlacement::DevicePlacement(double gpus) {
  int64_t left = units(gpus);
  while (left > 0) {
    capacity_.push_back(std::min(left, kUnitsPerGpu));
    left -= kUnitsPerGpu;
  }
  bound_.assign(capacity_.size(), 0);
}

int64_t DevicePlacement::units(double gpus) {
  return static_cast<int64_t>(std::llround(gpus * kUnitsPerGpu));
}

int DevicePlacement::bind(double gpus) {
  const int64_t need = units(gpus);
  if (need <= 0) return -1;
  const int n = devices();
  if (gpus <= 1) {
    int best = -1;
    for (int d = 0; d < n; ++d) {
      if (capacity_[d] - bound_[d] < need) continue;
      if (best < 0 || bound_[d] < bound_[best]) best = d;
    }
    if (best >= 0) bound_[best] += need;
    return best;
  }
  const int k = span(gpus);
  for (int first = 0; first + k <= n; ++first) {
    bool free = true;
    for (int d = first; d < first + k && free; ++d) {
      free = bound_[d] == 0 && capacity_[d] == kUnitsPerGpu;
    }
    if (!free) continue;
    for (int d = first; d < first + k; ++d) bound_[d] = kUnitsPerGpu;
    return first;
  }
  return -1;
}

void DevicePlacement::unbind(int device, double gpus) {
  if (device < 0 || device >= devices()) return;
  if (gpus <= 1) {
    bound_[device] = std::max<int64_t>(0, bound_[device] - units(gpus));
    return;
  }
  for (int d = device; d < device + span(gpus) && d < devices(); ++d) bound_[d] = 0;
}

}  // namespace winnow
