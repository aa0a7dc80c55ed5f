#include "dedup/star_groups.h"

namespace winnow {

std::vector<uint32_t> assign_star_centres(size_t n, const std::vector<uint32_t>& order,
                                          const std::vector<std::pair<uint32_t, uint32_t>>& links) {
  // Adjacency in compressed rows: each link both ways.
  std::vector<uint64_t> begin(n + 1, 0);
  for (const auto& [a, b] : links) {
    ++begin[a + 1];
    ++begin[b + 1];
  }
  for (size_t i = 0; i < n; ++i) begin[i + 1] += begin[i];
  std::vector<uint32_t> neighbours(begin[n]);
  std::vector<uint64_t> fill(begin.begin(), begin.end() - 1);
  for (const auto& [a, b] : links) {
    neighbours[fill[a]++] = b;
    neighbours[fill[b]++] = a;
  }
  constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> centre(n, kNone);
  for (uint32_t m : order) {
    if (centre[m] != kNone) continue;
    centre[m] = m;
    for (uint64_t k = begin[m]; k < begin[m + 1]; ++k) {
      if (centre[neighbours[k]] == kNone) centre[neighbours[k]] = m;
    }
  }
  return centre;
}

}  // namespace winnow
