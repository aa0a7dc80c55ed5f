#include "media/frame_windows.h"

namespace winnow {

std::vector<FrameWindow> frame_windows(size_t frames, size_t window) {
  std::vector<FrameWindow> out;
  if (frames == 0 || window == 0) return out;
  for (size_t begin = 0; begin < frames; begin += window) {
    const size_t end = begin + window < frames ? begin + window : frames;
    // A short tail (less than half a window) after a full window joins that window.
    if (!out.empty() && (end - begin) * 2 < window) {
      out.back().end = end;
      break;
    }
    out.push_back({begin, end});
  }
  return out;
}

}  // namespace winnow
