// The captioner's windows: full windows, a remainder of at least half a window on its own, a
// shorter one joined to the last window, a short clip as one window; every frame in exactly one.
#include "media/frame_windows.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

std::vector<std::pair<size_t, size_t>> spans(size_t frames, size_t window) {
  std::vector<std::pair<size_t, size_t>> out;
  for (const FrameWindow& w : frame_windows(frames, window)) out.emplace_back(w.begin, w.end);
  return out;
}

using Spans = std::vector<std::pair<size_t, size_t>>;

TEST(FrameWindows, TheAnchorsWindowsOf256) {
  EXPECT_EQ(spans(512, 256), (Spans{{0, 256}, {256, 512}}));
  EXPECT_EQ(spans(640, 256), (Spans{{0, 256}, {256, 512}, {512, 640}}));  // 128: its own
  EXPECT_EQ(spans(639, 256), (Spans{{0, 256}, {256, 639}}));              // 127: joins
  EXPECT_EQ(spans(20, 256), (Spans{{0, 20}}));                            // a 10 s clip at 2 fps
  EXPECT_EQ(spans(256, 256), (Spans{{0, 256}}));
}

TEST(FrameWindows, EveryFrameIsInExactlyOneWindowWhateverTheSizes) {
  for (size_t window = 1; window < 40; ++window) {
    for (size_t frames = 1; frames < 130; ++frames) {
      size_t next = 0;
      for (const FrameWindow& w : frame_windows(frames, window)) {
        ASSERT_EQ(w.begin, next);
        ASSERT_GT(w.end, w.begin);
        ASSERT_LT(w.end - w.begin, 2 * window) << frames << " " << window;
        next = w.end;
      }
      ASSERT_EQ(next, frames);
    }
  }
  EXPECT_TRUE(frame_windows(0, 256).empty());
}

}  // namespace
}  // namespace winnow
