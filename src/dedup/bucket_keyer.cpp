#include "dedup/bucket_keyer.h"

#include <limits>

namespace winnow {

double set_jaccard(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
  size_t both = 0;
  for (size_t i = 0, j = 0; i < x.size() && j < y.size();) {
    if (x[i] < y[j]) {
      ++i;
    } else if (y[j] < x[i]) {
      ++j;
    } else {
      ++both;
      ++i;
      ++j;
    }
  }
  const size_t either = x.size() + y.size() - both;
  return either > 0 ? static_cast<double>(both) / static_cast<double>(either) : 0;
}

std::pair<std::string, double> BucketKeyer::pair_measure(const std::vector<uint32_t>& a,
                                                         const std::vector<uint32_t>& b) const {
  if (a.empty() || b.empty()) return {"", std::numeric_limits<double>::quiet_NaN()};
  return {"Jaccard", set_jaccard(a, b)};
}

}  // namespace winnow
