#include "media/block_motion.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace winnow {

void match_blocks(const uint8_t* from, const uint8_t* to, int width, int height,
                  const BlockMatchOptions& options,
                  const std::function<void(int x, int y, int w, int h, double length)>& on_block) {
  const int b = options.block;
  for (int by = 0; by + b <= height; by += b) {
    for (int bx = 0; bx + b <= width; bx += b) {
      uint64_t best = std::numeric_limits<uint64_t>::max();
      int best_d2 = 0;
      for (int dy = -options.range; dy <= options.range; ++dy) {
        if (by + dy < 0 || by + dy + b > height) continue;
        for (int dx = -options.range; dx <= options.range; ++dx) {
          if (bx + dx < 0 || bx + dx + b > width) continue;
          uint64_t sad = 0;
          for (int y = 0; y < b && sad <= best; ++y) {
            const uint8_t* a = from + size_t(by + y) * width + bx;
            const uint8_t* c = to + size_t(by + dy + y) * width + bx + dx;
            for (int x = 0; x < b; ++x)
              sad += static_cast<uint64_t>(std::abs(int(a[x]) - int(c[x])));
          }
          const int d2 = dx * dx + dy * dy;
          if (sad < best || (sad == best && d2 < best_d2)) {
            best = sad;
            best_d2 = d2;
          }
        }
      }
      const double mean_difference = double(best) / (b * b);
      on_block(bx, by, b, b,
               mean_difference > options.unmatched_difference ? -1.0 : std::sqrt(double(best_d2)));
    }
  }
}

}  // namespace winnow
