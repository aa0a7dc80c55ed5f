#include "dist/poll_backoff.h"

#include <algorithm>

namespace winnow::dist {

std::chrono::nanoseconds PollBackoff::pause_after(uint64_t failed) const {
  if (failed <= spins) return std::chrono::nanoseconds{0};
  std::chrono::nanoseconds pause = first_pause;
  // Doubling stops at the cap, so the loop runs at most log2(longest / first) times.
  for (uint64_t step = spins + 1; step < failed && pause < longest_pause; ++step) pause *= 2;
  return std::min(pause, longest_pause);
}

uint64_t PollBackoff::most_tests_within(std::chrono::nanoseconds elapsed) const {
  uint64_t tests = spins + 1;  // the spins and the test after them come without a pause
  std::chrono::nanoseconds start_of_next{0};
  for (uint64_t failed = spins + 1;; ++failed) {
    const std::chrono::nanoseconds pause = pause_after(failed);
    if (pause.count() <= 0) return UINT64_MAX;  // a schedule that never pauses: no bound
    if (pause == longest_pause) {
      // From here every pause is the same: count the rest at once.
      const std::chrono::nanoseconds left = elapsed - start_of_next;
      return left.count() < 0 ? tests : tests + static_cast<uint64_t>(left / pause);
    }
    start_of_next += pause;
    if (start_of_next > elapsed) return tests;
    ++tests;
  }
}

}  // namespace winnow::dist
