// clip_embed and clip_aesthetic_filter with small seeded models (tests/models/
// vision_test_model.py) on synthetic videos: the frames sampled from each clip's span (decoded
// here through the same codec module, written as PPM) go through the Python reference (Pillow,
// transformers' preprocessing steps, numpy) and give the clip's embedding (mean of the frames',
// normalised) and aesthetic score (min or mean of the frames') to 1e-5.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>

#include "synthetic_video.h"
#include "media/video_codecs.h"
#include "models/vision_test_models.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

class ClipModels : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    VideoSpec spec;
    spec.frames = 100;  // 4 s at 25 fps, cuts at 1.6 s and 2.8 s
    ASSERT_TRUE(write_video(video_, spec, shots_painter({40, 70}), &error)) << error;
    vision_script("encoder " + dir_.file("model") + " --size 32 --embed 12");
    vision_script("head " + dir_.file("head.onnx") + " --input 12");
  }

  std::unique_ptr<DocBatch> clips() const {
    auto batch = std::make_unique<DocBatch>();
    for (size_t c = 0; c < spans_.size(); ++c) {
      Payload payload = Payload::of_file(video_, "video/mp4");
      payload.time_begin = spans_[c].begin_s;
      payload.time_end = spans_[c].end_s;
      batch->add_item(DocKey::make(0, c), ItemKind::kClip, "clip" + std::to_string(c),
                      std::move(payload), 0);
    }
    return batch;
  }

  // The reference embeddings (normalised) of the frames of `span` sampled at `fps`.
  std::vector<std::vector<double>> frame_reference(const ClipSpan& span, double fps) {
    FrameRequest request;
    request.begin_s = span.begin_s;
    request.end_s = span.end_s;
    request.sample_fps = fps;
    std::vector<std::string> paths;
    Status status = decode_video_frames(video_, request, [&](VideoFrame& frame) {
      std::string ppm = fmt::format("P6\n{} {}\n255\n", frame.width, frame.height);
      for (size_t i = 0; i < frame.bgr.size(); i += 3) {
        ppm += static_cast<char>(frame.bgr[i + 2]);
        ppm += static_cast<char>(frame.bgr[i + 1]);
        ppm += static_cast<char>(frame.bgr[i]);
      }
      paths.push_back(dir_.file(fmt::format("frame{}.ppm", paths.size())));
      write_file(paths.back(), ppm);
      return true;
    });
    EXPECT_TRUE(status.is_ok()) << status.message();
    return vision_reference("embed", dir_.file("model"), paths, dir_.path());
  }

  TempDir dir_;
  std::string video_ = dir_.file("shots.mp4");
  std::vector<ClipSpan> spans_ = {{0.0, 1.6}, {1.6, 2.8}, {2.8, 4.0}};
  ReasonTable reasons_;
};

TEST_F(ClipModels, EmbeddingIsTheNormalisedMeanOfTheFrames) {
  StageContext context(reasons_, "clip_embed", 0, 0);
  auto stage = build_stage(clip_embed_spec(),
                           {{"model", dir_.file("model")}, {"sample_fps", 2.0}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = clips();
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("embedding");
  ASSERT_NE(column, nullptr);
  for (size_t c = 0; c < spans_.size(); ++c) {
    const auto frames = frame_reference(spans_[c], 2.0);
    ASSERT_GE(frames.size(), 2u);
    std::vector<double> mean(12, 0.0);
    for (const auto& f : frames) {
      for (size_t d = 0; d < 12; ++d) mean[d] += f[d] / frames.size();
    }
    double norm = 0;
    for (double v : mean) norm += v * v;
    auto ours = column->vector_at(c);
    ASSERT_EQ(ours.size(), 12u);
    for (size_t d = 0; d < 12; ++d) EXPECT_NEAR(ours[d], mean[d] / std::sqrt(norm), 1e-5) << c;
  }
  // Different shots, different embeddings: the first and second clips are far apart.
  double dot = 0;
  for (size_t d = 0; d < 12; ++d) dot += column->vector_at(0)[d] * column->vector_at(1)[d];
  EXPECT_LT(dot, 0.999);
}

TEST_F(ClipModels, MaxFramesLowersTheRateOverTheSpan) {
  // 1.6 s at 2 fps would be 4 frames; max_frames 2 samples at 2 / 1.6 = 1.25 fps instead.
  StageContext context(reasons_, "clip_embed", 0, 0);
  auto stage = build_stage(
      clip_embed_spec(),
      {{"model", dir_.file("model")}, {"sample_fps", 2.0}, {"max_frames", int64_t{2}}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = clips();
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  const auto frames = frame_reference(spans_[0], 1.25);
  ASSERT_EQ(frames.size(), 2u);
  std::vector<double> mean(12, 0.0);
  for (const auto& f : frames) {
    for (size_t d = 0; d < 12; ++d) mean[d] += f[d] / 2;
  }
  double norm = 0;
  for (double v : mean) norm += v * v;
  auto ours = batch->find_annotation("embedding")->vector_at(0);
  for (size_t d = 0; d < 12; ++d) EXPECT_NEAR(ours[d], mean[d] / std::sqrt(norm), 1e-5);
}

TEST_F(ClipModels, AestheticScoreIsTheMinimumOrMeanOfTheFrames) {
  // Per clip, the frames' head scores from the reference.
  std::vector<std::vector<double>> frame_scores;
  for (const ClipSpan& span : spans_) {
    const auto frames = frame_reference(span, 1.0);
    std::string json = "[";
    for (size_t f = 0; f < frames.size(); ++f) {
      json += f ? ",[" : "[";
      for (size_t d = 0; d < frames[f].size(); ++d) {
        json += fmt::format("{}{:.17g}", d ? "," : "", frames[f][d]);
      }
      json += "]";
    }
    write_file(dir_.file("vectors.json"), json + "]");
    vision_script("score " + dir_.file("head.onnx") + " " + dir_.file("vectors.json") + " " +
                  dir_.file("scores.json"));
    simdjson::dom::parser parser;
    auto& scores = frame_scores.emplace_back();
    for (double s : parser.load(dir_.file("scores.json")).get_array()) scores.push_back(s);
  }
  for (const char* reduction : {"min", "mean"}) {
    std::vector<double> expected;
    for (const auto& s : frame_scores) {
      double v = reduction[1] == 'i' ? *std::min_element(s.begin(), s.end()) : 0.0;
      if (reduction[1] == 'e') {
        for (double x : s) v += x / s.size();
      }
      expected.push_back(v);
    }
    // The threshold between the two lowest clip scores: one clip goes.
    std::vector<double> sorted = expected;
    std::sort(sorted.begin(), sorted.end());
    const double min_score = (sorted[0] + sorted[1]) / 2;
    StageContext context(reasons_, fmt::format("aesthetic_{}", reduction), 0, 0);
    auto stage = build_stage(clip_aesthetic_filter_spec(),
                             {{"model", dir_.file("model")},
                              {"head", dir_.file("head.onnx")},
                              {"reduction", std::string(reduction)},
                              {"min_score", min_score}},
                             context);
    ASSERT_TRUE(stage.is_ok()) << stage.status().message();
    auto batch = clips();
    ASSERT_TRUE((*stage)->process(*batch).is_ok());
    const AnnotationColumn* column = batch->find_annotation(context.stage_name());
    ASSERT_NE(column, nullptr);
    for (size_t c = 0; c < spans_.size(); ++c) {
      EXPECT_NEAR(column->float_at(c), expected[c], 1e-5) << reduction << " clip " << c;
      EXPECT_EQ(batch->kept(c), expected[c] >= min_score) << reduction << " clip " << c;
    }
  }
}

TEST_F(ClipModels, UnreadableClipsAreDroppedAndBadParametersRefused) {
  StageContext context(reasons_, "clip_embed", 0, 0);
  auto stage = build_stage(clip_embed_spec(), {{"model", dir_.file("model")}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = std::make_unique<DocBatch>();
  write_file(dir_.file("notes.mp4"), "not a video");
  Payload payload = Payload::of_file(dir_.file("notes.mp4"), "video/mp4");
  payload.time_end = 1.0;
  batch->add_item(DocKey::make(0, 0), ItemKind::kClip, "bad", std::move(payload), 0);
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  EXPECT_EQ(reason_of(*batch, reasons_, 0), "clip_embed/undecodable");

  StageContext other(reasons_, "other", 1, 0);
  auto refused = build_stage(clip_embed_spec(),
                             {{"model", dir_.file("model")}, {"sample_fps", 0.0}}, other);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.status().message().find("sample_fps"), std::string::npos);
  auto no_head = build_stage(clip_aesthetic_filter_spec(), {{"model", dir_.file("model")}}, other);
  ASSERT_FALSE(no_head.is_ok());
  EXPECT_NE(no_head.status().message().find("head"), std::string::npos);
}

}  // namespace
}  // namespace winnow::testing
