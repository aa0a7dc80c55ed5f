// ShotDetector on painted frames (no codec in the way): hard cuts found at their frame, none in a
// static shot, a slow pan, a fade, or noise-free motion of a small object.
#include "media/shot_detector.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "synthetic_video.h"

namespace winnow::testing {
namespace {

std::vector<int64_t> detect(int frames, const FramePainter& paint,
                            ShotDetectorOptions options = {}) {
  constexpr int kWidth = 64, kHeight = 40;
  std::vector<uint8_t> bgr(kWidth * kHeight * 3);
  ShotDetector detector(options);
  for (int i = 0; i < frames; ++i) {
    paint(i, kWidth, kHeight, bgr.data());
    detector.add(bgr.data(), kWidth, kHeight);
  }
  return detector.cuts();
}

TEST(ShotDetector, FindsEveryHardCutAtItsFrame) {
  const std::vector<int> cuts = {30, 47, 90, 111, 160, 200, 236};
  EXPECT_EQ(detect(260, shots_painter(cuts)), std::vector<int64_t>(cuts.begin(), cuts.end()));
}

TEST(ShotDetector, NoCutInStaticOrPanningShots) {
  EXPECT_TRUE(
      detect(120, [](int i, int w, int h, uint8_t* p) { paint_texture(0, i, w, h, p); }).empty());
  EXPECT_TRUE(
      detect(120, [](int i, int w, int h, uint8_t* p) { paint_texture(1, i, w, h, p); }).empty());
  // A faster pan changes every pixel every frame: the change is high but steady.
  EXPECT_TRUE(
      detect(120, [](int i, int w, int h, uint8_t* p) { paint_texture(4, i, w, h, p); }).empty());
}

TEST(ShotDetector, NoCutInADissolveButTheHardCutAfterItIsFound) {
  // Scene 0 dissolves into scene 1 over frames 40-65; a hard cut to scene 2 at frame 100.
  auto paint = [](int i, int w, int h, uint8_t* p) {
    if (i >= 100) return paint_scene(2, i, w, h, p);
    std::vector<uint8_t> a(size_t(w) * h * 3), b(a.size());
    paint_scene(0, i, w, h, a.data());
    paint_scene(1, i, w, h, b.data());
    const double t = std::clamp((i - 40) / 25.0, 0.0, 1.0);
    for (size_t k = 0; k < a.size(); ++k) p[k] = static_cast<uint8_t>(a[k] * (1 - t) + b[k] * t);
  };
  EXPECT_EQ(detect(140, paint), std::vector<int64_t>{100});
}

TEST(ShotDetector, MinSceneFramesHoldsBackACutTooSoonAfterAnother) {
  ShotDetectorOptions options;
  options.min_scene_frames = 20;
  EXPECT_EQ(detect(100, shots_painter({30, 40, 70}), options), (std::vector<int64_t>{30, 70}));
}

}  // namespace
}  // namespace winnow::testing
