// split_video on a probed synthetic video: fixed windows with exactly the expected spans, ids
// stable across runs and distinct per span, each clip a reference to its source that inherits
// the video's fields; a video too short for a clip is dropped with its duration; bad
// parameters are refused naming the key. Method transnetv2 with a stand-in model
// (tests/models/transnet_test_model.py): every hard cut found (at its frame), wherever it falls
// (the first and last 25 frames, videos shorter than a window), none on still or panning
// shots, and the shots then cut into clips by the same rules as shot_detection's.
#include <gtest/gtest.h>

#include "io/video_file_reader.h"
#include "media/clip_spans.h"
#include "synthetic_video.h"
#include "models/transnet_test_models.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

std::unique_ptr<DocBatch> video_batch(const std::string& path, int frames) {
  VideoSpec spec;  // 25 fps
  spec.frames = frames;
  std::string error;
  EXPECT_TRUE(write_video(path, spec, shots_painter({}), &error)) << error;
  return VideoFileReader(path, 0).next();
}

TEST(SplitVideo, FixedStrideGivesTheExpectedSpansAsClipItems) {
  TempDir dir;
  auto batch = video_batch(dir.file("v.mp4"), 250);  // 10 s
  ReasonTable reasons;
  StageContext context(reasons, "split", 0, 0);
  auto stage = build_stage(
      split_video_spec(),
      {{"method", std::string("fixed_stride")}, {"clip_len_s", 4.0}, {"min_clip_s", 1.5}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  // The video (replaced by its clips), then [0, 4), [4, 8), [8, 10).
  ASSERT_EQ(batch->size(), 4u);
  EXPECT_EQ(reasons.at(batch->drop_reason(0)).qualified(), "split/split");
  const std::vector<std::pair<double, double>> spans = {{0, 4}, {4, 8}, {8, 10}};
  for (size_t k = 0; k < spans.size(); ++k) {
    const size_t row = k + 1;
    SCOPED_TRACE(row);
    EXPECT_TRUE(batch->kept(row));
    EXPECT_EQ(batch->kind(row), ItemKind::kClip);
    EXPECT_EQ(batch->key(row), DocKey::child(batch->key(0), uint32_t(k)));
    EXPECT_EQ(batch->payload(row)->path, dir.file("v.mp4"));
    EXPECT_DOUBLE_EQ(batch->payload(row)->time_begin, spans[k].first);
    EXPECT_NEAR(batch->payload(row)->time_end, spans[k].second, 1e-9);
    EXPECT_DOUBLE_EQ(batch->find_annotation("span_start_s")->float_at(row), spans[k].first);
    EXPECT_EQ(batch->find_annotation("frames")->int_at(row),
              std::llround((spans[k].second - spans[k].first) * 25));
    EXPECT_EQ(batch->find_annotation("source_video")->string_at(row), dir.file("v.mp4"));
    EXPECT_EQ(batch->find_annotation("clip_index")->int_at(row), int64_t(k));
    EXPECT_EQ(batch->id(row).size(), 36u);  // UUID-shaped
  }
  EXPECT_NE(batch->id(1), batch->id(2));
  // Ids come from the path and span: the same on another run.
  auto again = VideoFileReader(dir.file("v.mp4"), 5).next();
  ASSERT_TRUE((*stage)->process(*again).is_ok());
  EXPECT_EQ(again->id(2), batch->id(2));
}

TEST(SplitVideo, AVideoShorterThanAClipIsDroppedWithItsDuration) {
  TempDir dir;
  auto batch = video_batch(dir.file("short.mp4"), 30);  // 1.2 s
  ReasonTable reasons;
  StageContext context(reasons, "split", 0, 0);
  auto stage = build_stage(split_video_spec(), {}, context);  // shot detection, min 2 s
  ASSERT_TRUE(stage.is_ok());
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  ASSERT_EQ(batch->size(), 1u);
  EXPECT_EQ(reason_of(*batch, reasons, 0), "split/no_clips");
  EXPECT_NEAR(batch->drop_score(0), 1.2, 0.05);
}

TEST(SplitVideo, BadParametersAreRefusedNamingTheKey) {
  ReasonTable reasons;
  StageContext context(reasons, "split", 0, 0);
  auto method = build_stage(split_video_spec(), {{"method", std::string("scenes")}}, context);
  ASSERT_FALSE(method.is_ok());
  EXPECT_NE(method.status().message().find("method"), std::string::npos);
  auto max = build_stage(split_video_spec(), {{"max_clip_s", 1.0}}, context);
  ASSERT_FALSE(max.is_ok());
  EXPECT_NE(max.status().message().find("max_clip_s"), std::string::npos);
}

// The shots transnetv2 finds in `video`: with no crop, minimum or maximum, each clip is a shot.
std::vector<ClipSpan> transnet_shots(const std::string& video, const std::string& model) {
  auto batch = VideoFileReader(video, 0).next();
  ReasonTable reasons;
  StageContext context(reasons, "split", 0, 0);
  auto stage = build_stage(split_video_spec(),
                           {{"method", std::string("transnetv2")},
                            {"model", model},
                            {"crop_s", 0.0},
                            {"min_clip_s", 0.0},
                            {"min_clip_frames", int64_t(1)},
                            {"max_clip_s", 0.0}},
                           context);
  EXPECT_TRUE(stage.is_ok()) << stage.status().message();
  if (!stage.is_ok()) return {};
  EXPECT_TRUE((*stage)->process(*batch).is_ok());
  std::vector<ClipSpan> spans;
  for (size_t row = 1; row < batch->size(); ++row) {
    spans.push_back({batch->payload(row)->time_begin, batch->payload(row)->time_end});
  }
  return spans;
}

class SplitVideoTransNet : public ::testing::Test {
 protected:
  void SetUp() override { build_transnet_test_model(model_); }

  std::string write(const std::string& name, int frames, const FramePainter& paint) {
    VideoSpec spec;  // 25 fps
    spec.frames = frames;
    std::string error;
    EXPECT_TRUE(write_video(dir_.file(name), spec, paint, &error)) << error;
    return dir_.file(name);
  }

  TempDir dir_;
  std::string model_ = dir_.file("transnet.onnx");
};

TEST_F(SplitVideoTransNet, FindsEveryHardCutWhereverItFalls) {
  struct Case {
    int frames;
    std::vector<int> cuts;
  };
  // Cuts in the first and the last 25 frames, in the middle of windows and on their edges;
  // videos shorter than one window.
  const std::vector<Case> cases = {{240, {10, 75, 100, 163, 228}}, {60, {30}}, {90, {7, 80}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.frames);
    const auto spans = transnet_shots(write("shots.mp4", c.frames, shots_painter(c.cuts)), model_);
    ASSERT_EQ(spans.size(), c.cuts.size() + 1);
    EXPECT_DOUBLE_EQ(spans.front().begin_s, 0.0);
    EXPECT_NEAR(spans.back().end_s, c.frames / 25.0, 1e-6);
    for (size_t k = 0; k < c.cuts.size(); ++k) {
      const double found = spans[k + 1].begin_s * 25;
      EXPECT_NEAR(found, c.cuts[k], 2.0) << "cut " << c.cuts[k];
      EXPECT_DOUBLE_EQ(spans[k].end_s, spans[k + 1].begin_s);
    }
  }
}

TEST_F(SplitVideoTransNet, NoCutOnStillOrPanningShots) {
  for (double speed : {0.0, 1.0, 2.0}) {
    SCOPED_TRACE(speed);
    auto texture = [speed](int i, int w, int h, uint8_t* p) { paint_texture(speed, i, w, h, p); };
    const auto spans = transnet_shots(write("texture.mp4", 200, texture), model_);
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_NEAR(spans[0].end_s, 8.0, 1e-6);
  }
}

TEST_F(SplitVideoTransNet, ShotsBecomeClipsByTheAnchorsRules) {
  const std::string video = write("shots.mp4", 320, shots_painter({80, 160, 240}));
  auto batch = VideoFileReader(video, 0).next();
  ReasonTable reasons;
  StageContext context(reasons, "split", 0, 0);
  auto stage = build_stage(split_video_spec(),
                           {{"method", std::string("transnetv2")}, {"model", model_}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  // The defaults: 0.5 s cropped at each end, at least 2 s and 48 frames.
  std::vector<double> times;
  for (int f = 0; f < 320; ++f) times.push_back(f / 25.0);
  const auto expected = shot_spans(times, {80, 160, 240}, 12.8, ShotRules{});
  ASSERT_EQ(expected.size(), 4u);
  ASSERT_EQ(batch->size(), expected.size() + 1);
  for (size_t k = 0; k < expected.size(); ++k) {
    EXPECT_NEAR(batch->payload(k + 1)->time_begin, expected[k].begin_s, 1e-6);
    EXPECT_NEAR(batch->payload(k + 1)->time_end, expected[k].end_s, 1e-6);
  }
}

TEST_F(SplitVideoTransNet, ModelMistakesAreRefusedNamingTheKey) {
  ReasonTable reasons;
  StageContext context(reasons, "split", 0, 0);
  auto no_model = build_stage(split_video_spec(), {{"method", std::string("transnetv2")}}, context);
  ASSERT_FALSE(no_model.is_ok());
  EXPECT_NE(no_model.status().message().find("model"), std::string::npos);
  auto missing = build_stage(
      split_video_spec(),
      {{"method", std::string("transnetv2")}, {"model", dir_.file("none.onnx")}}, context);
  ASSERT_FALSE(missing.is_ok());
  EXPECT_NE(missing.status().message().find("none.onnx"), std::string::npos);
  auto unused = build_stage(split_video_spec(), {{"model", model_}}, context);
  ASSERT_FALSE(unused.is_ok());
  EXPECT_NE(unused.status().message().find("model"), std::string::npos);
  auto threshold = build_stage(
      split_video_spec(),
      {{"method", std::string("transnetv2")}, {"model", model_}, {"cut_threshold", 1.5}}, context);
  ASSERT_FALSE(threshold.is_ok());
  EXPECT_NE(threshold.status().message().find("cut_threshold"), std::string::npos);
}

}  // namespace
}  // namespace winnow::testing
