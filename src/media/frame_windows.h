#pragma once
// The windows a captioner sees: a clip's sampled frames cut into runs of `window` frames, as the
// anchor does (256 frames at 2 fps). A remainder of at least half a window is a window of its
// own; a shorter one joins the window before it, so no frame is left out and no window is a
// sliver. A clip with fewer frames than a window is one window.
#include <cstddef>
#include <vector>

namespace winnow {

struct FrameWindow {
  size_t begin = 0;  // frames [begin, end) of the clip's sampled frames
  size_t end = 0;
};

std::vector<FrameWindow> frame_windows(size_t frames, size_t window);

}  // namespace winnow
