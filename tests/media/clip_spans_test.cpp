#include "media/clip_spans.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

std::vector<std::pair<double, double>> pairs(const std::vector<ClipSpan>& spans) {
  std::vector<std::pair<double, double>> out;
  for (const ClipSpan& s : spans) out.emplace_back(s.begin_s, s.end_s);
  return out;
}

TEST(FixedStrideSpans, NemoDefaultsGiveTenSecondWindowsAndAShortLastOne) {
  using P = std::vector<std::pair<double, double>>;
  EXPECT_EQ(pairs(fixed_stride_spans(25, 10, 10, 2)), (P{{0, 10}, {10, 20}, {20, 25}}));
  // The last window under min_clip_s is left out.
  EXPECT_EQ(pairs(fixed_stride_spans(21.5, 10, 10, 2)), (P{{0, 10}, {10, 20}}));
  // Overlapping windows (stride < length).
  EXPECT_EQ(pairs(fixed_stride_spans(12, 6, 3, 2)), (P{{0, 6}, {3, 9}, {6, 12}, {9, 12}}));
  EXPECT_TRUE(fixed_stride_spans(1.5, 10, 10, 2).empty());
}

std::vector<double> times(int frames, double fps) {
  std::vector<double> t;
  for (int i = 0; i < frames; ++i) t.push_back(i / fps);
  return t;
}

TEST(ShotSpans, CropsEachEndAndLeavesOutShortShots) {
  // 25 fps, 300 frames (12 s); shots [0,100) [100,150) [150,300).
  ShotRules rules;      // crop 0.5 s (12.5 -> 13 frames), min 2 s and 48 frames, max 60 s
  rules.crop_s = 0.48;  // 12 frames
  auto spans = shot_spans(times(300, 25), {100, 150}, 12.0, rules);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_DOUBLE_EQ(spans[0].begin_s, 12 / 25.0);
  EXPECT_DOUBLE_EQ(spans[0].end_s, 88 / 25.0);
  // The middle shot: 50 - 24 = 26 frames, too short.
  EXPECT_DOUBLE_EQ(spans[1].begin_s, 162 / 25.0);
  EXPECT_DOUBLE_EQ(spans[1].end_s, 288 / 25.0);
}

TEST(ShotSpans, SplitsLongShotsIntoMaxLengthPieces) {
  ShotRules rules;
  rules.crop_s = 0;
  rules.max_clip_s = 4;  // 100 frames at 25 fps
  rules.min_clip_frames = 10;
  rules.min_clip_s = 1;
  // One shot of 330 frames: 100, 100, 100, then 30 frames (1.2 s) kept.
  auto spans = shot_spans(times(330, 25), {}, 13.2, rules);
  using P = std::vector<std::pair<double, double>>;
  EXPECT_EQ(pairs(spans), (P{{0, 4}, {4, 8}, {8, 12}, {12, 13.2}}));
  rules.min_clip_s = 2;  // now the remainder is too short
  EXPECT_EQ(shot_spans(times(330, 25), {}, 13.2, rules).size(), 3u);
}

TEST(ShotSpans, FrameCountRuleAppliesAtLowFrameRates) {
  ShotRules rules;
  rules.crop_s = 0;
  // 10 fps: a 4 s shot has 40 frames, under 48.
  EXPECT_TRUE(shot_spans(times(40, 10), {}, 4.0, rules).empty());
  EXPECT_EQ(shot_spans(times(50, 10), {}, 5.0, rules).size(), 1u);
}

}  // namespace
}  // namespace winnow
