// TransNetV2's windows (predict_frames' padding: every frame predicted once, from a window's
// centre, whatever the length) and the model run on frames given directly, with stand-in models
// (tests/models/transnet_test_model.py) in each form the exports take: float or uint8 input,
// [batch, 100, 1] or [batch, 100] output, probabilities or logits; the first output is the one
// read. A model of another shape is refused at load, naming the file and the shape.
#include "models/transnet_v2.h"

#include <gtest/gtest.h>

#include <set>

#include "models/transnet_test_models.h"
#include "models/vision_test_models.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

constexpr size_t kFrameBytes = 48 * 27 * 3;

// `frames` frames of flat colour, a new colour from each of `cuts` on.
std::vector<uint8_t> shot_frames(int64_t frames, const std::vector<int64_t>& cuts) {
  std::vector<uint8_t> rgb(static_cast<size_t>(frames) * kFrameBytes);
  for (int64_t f = 0; f < frames; ++f) {
    int shot = 0;
    for (int64_t c : cuts) shot += f >= c ? 1 : 0;
    const uint8_t colour[3] = {uint8_t(40 + 70 * (shot % 3)), uint8_t(200 - 60 * (shot % 4)),
                               uint8_t(30 + 90 * (shot % 2))};
    for (size_t p = 0; p < kFrameBytes; ++p) rgb[size_t(f) * kFrameBytes + p] = colour[p % 3];
  }
  return rgb;
}

TEST(TransNetPlan, EveryFrameIsPredictedOnceFromAWindowCentre) {
  for (int64_t frames : {1, 24, 25, 49, 50, 51, 99, 100, 101, 149, 150, 237, 1000}) {
    SCOPED_TRACE(frames);
    const TransNetPlan plan = transnet_plan(frames);
    // predict_frames: 25 in front; behind, up to a whole number of steps, plus 25.
    EXPECT_EQ(plan.padded, 25 + 50 * ((frames + 49) / 50) + 25);
    EXPECT_GE(plan.padded, frames + 50);
    EXPECT_LT(plan.padded, frames + 100);
    EXPECT_EQ(plan.padded, (plan.windows - 1) * 50 + 100);  // the last window ends the padding
    std::multiset<int64_t> centred;
    for (int64_t w = 0; w < plan.windows; ++w) {
      for (int64_t k = 25; k < 75; ++k) {
        const int64_t p = w * 50 + k;
        if (p - 25 >= frames) continue;
        centred.insert(p - 25);
        // The frame a centred position shows is the frame it predicts.
        EXPECT_EQ(plan.frame_at(p), p - 25);
      }
    }
    ASSERT_EQ(centred.size(), size_t(frames));
    for (int64_t f = 0; f < frames; ++f) EXPECT_EQ(centred.count(f), 1u) << f;
    EXPECT_EQ(plan.frame_at(0), 0);  // the padding repeats the first and the last frame
    EXPECT_EQ(plan.frame_at(plan.padded - 1), frames - 1);
  }
  EXPECT_EQ(transnet_plan(0).windows, 0);
}

TEST(TransNetShotStarts, AShotStartsAfterEachRunAboveTheThreshold) {
  const std::vector<float> p = {0.9f, 0.1f, 0.2f, 0.5f, 0.1f, 0.4f, 0.41f, 0.6f, 0.0f, 0.8f};
  // Runs above 0.4: [0], [3], [6, 7], [9] (to the end: no shot after it); 0.4 itself is not
  // above.
  EXPECT_EQ(transnet_shot_starts(p, 0.4), (std::vector<int64_t>{1, 4, 8}));
  EXPECT_TRUE(transnet_shot_starts({}, 0.4).empty());
}

class TransNetModel : public ::testing::TestWithParam<std::string> {
 protected:
  TempDir dir_;
};

TEST_P(TransNetModel, MarksTheLastFrameOfEachShotWhereverItFalls) {
  const std::string path = dir_.file("transnet.onnx");
  build_transnet_test_model(path, GetParam());
  TransNetOptions options;
  options.logits = GetParam().find("--logits") != std::string::npos;
  auto model = TransNetV2::load(path, options);
  ASSERT_TRUE(model.is_ok()) << model.status().message();
  EXPECT_EQ((*model)->output_name(), "single_frame");
  struct Case {
    int64_t frames;
    std::vector<int64_t> cuts;
  };
  // Short videos (under one window), cuts in the first and the last 25 frames, several
  // batches of windows.
  const std::vector<Case> cases = {{1, {}},     {30, {12}},           {60, {2, 31}},
                                   {100, {50}}, {237, {3, 120, 230}}, {620, {24, 300, 599, 618}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.frames);
    const auto rgb = shot_frames(c.frames, c.cuts);
    std::vector<float> p;
    ASSERT_TRUE((*model)->predict(rgb, c.frames, p).is_ok());
    ASSERT_EQ(p.size(), size_t(c.frames));
    for (int64_t f = 0; f < c.frames; ++f) {
      const bool last_of_shot = std::find(c.cuts.begin(), c.cuts.end(), f + 1) != c.cuts.end();
      if (last_of_shot) {
        EXPECT_GT(p[size_t(f)], 0.9f) << f;
      } else {
        EXPECT_LT(p[size_t(f)], 0.01f) << f;
      }
    }
    EXPECT_EQ(transnet_shot_starts(p, 0.4), c.cuts);
  }
}

INSTANTIATE_TEST_SUITE_P(Exports, TransNetModel,
                         ::testing::Values("", "--uint8", "--rank2", "--logits",
                                           "--uint8 --rank2 --logits"));

// Frames streamed one at a time, as split_video feeds them while decoding: each cut is found at
// its frame (near the start and the very end too, whatever the batch of windows), the same as
// predict() on the whole video, and never more than (batch_size + 1) x 50 frames are held.
TEST(TransNetStream, GivesPredictsProbabilitiesHoldingAFewWindowsOfFrames) {
  TempDir dir;
  build_transnet_test_model(dir.file("t.onnx"));
  for (size_t batch : {size_t{1}, size_t{3}}) {
    TransNetOptions options;
    options.batch_size = batch;
    auto model = TransNetV2::load(dir.file("t.onnx"), options);
    ASSERT_TRUE(model.is_ok()) << model.status().message();
    for (int64_t frames : {int64_t{1}, int64_t{74}, int64_t{75}, int64_t{151}, int64_t{1234}}) {
      SCOPED_TRACE(frames);
      const std::vector<int64_t> cuts = {frames / 3 + 1, frames - 1};
      const auto rgb = shot_frames(frames, frames > 3 ? cuts : std::vector<int64_t>{});
      std::vector<float> whole;
      ASSERT_TRUE((*model)->predict(rgb, frames, whole).is_ok());
      TransNetStream stream(**model);
      size_t most_held = 0;
      for (int64_t f = 0; f < frames; ++f) {
        ASSERT_TRUE(stream.add(std::span(rgb).subspan(f * kFrameBytes, kFrameBytes)).is_ok());
        most_held = std::max(most_held, stream.held_frames());
      }
      std::vector<float> streamed;
      ASSERT_TRUE(stream.finish(streamed).is_ok());
      EXPECT_EQ(streamed, whole);
      EXPECT_LE(most_held, (batch + 1) * 50);
      if (frames > 3) {
        EXPECT_EQ(transnet_shot_starts(streamed, 0.4), cuts);
      }
    }
  }
}

TEST(TransNetV2, WrongFramesAreAnErrorNotACrash) {
  TempDir dir;
  build_transnet_test_model(dir.file("t.onnx"));
  auto model = TransNetV2::load(dir.file("t.onnx"), {});
  ASSERT_TRUE(model.is_ok()) << model.status().message();
  std::vector<float> p;
  const std::vector<uint8_t> rgb(kFrameBytes * 3 - 1);
  EXPECT_FALSE((*model)->predict(rgb, 3, p).is_ok());
}

TEST(TransNetV2, AModelOfAnotherShapeIsRefusedAtLoad) {
  TempDir dir;
  vision_script("head " + dir.file("head.onnx") + " --input 12");
  auto model = TransNetV2::load(dir.file("head.onnx"), {});
  ASSERT_FALSE(model.is_ok());
  EXPECT_NE(model.status().message().find(dir.file("head.onnx")), std::string::npos);
  EXPECT_NE(model.status().message().find("[batch, 100, 27, 48, 3]"), std::string::npos)
      << model.status().message();
  auto missing = TransNetV2::load(dir.file("none.onnx"), {});
  ASSERT_FALSE(missing.is_ok());
  EXPECT_NE(missing.status().message().find("none.onnx"), std::string::npos);
}

}  // namespace
}  // namespace winnow::testing
