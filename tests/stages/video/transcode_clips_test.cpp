// transcode_clips after split_video on a synthetic H.264 video with a keyframe every 50 frames
// (2 s at 25 fps): with copy_when_possible, the fixed-stride clips that start on a keyframe and
// end on the next are remuxed (transcode_clips_method: copy), the others encoded; every clip
// decodes with its frame count either way (read back with libavformat directly). The encoder
// choice: h264_nvenc without a GPU (or without NVENC) is refused when the stage is built,
// naming the encoder; auto takes libx264 there.
#include <gtest/gtest.h>

#include "io/video_file_reader.h"
#include "synthetic_video.h"
#include "media/video_codecs.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

class TranscodeClipsStage : public ::testing::Test {
 protected:
  void SetUp() override {
    VideoSpec spec;
    spec.frames = 150;  // 6 s, keyframes at 0, 2 and 4 s
    spec.gop = 50;
    std::string error;
    // A pan: no scene change for x264 to put a keyframe of its own on.
    auto pan = [](int i, int w, int h, uint8_t* p) { paint_texture(1, i, w, h, p); };
    ASSERT_TRUE(write_video(video_, spec, pan, &error)) << error;
  }

  // The video's clips: 2 s long, one starting every `stride_s`.
  std::unique_ptr<DocBatch> clips(double stride_s) {
    auto batch = VideoFileReader(video_, 0).next();
    StageContext context(reasons_, "split", 0, 0);
    auto split = build_stage(split_video_spec(),
                             {{"method", std::string("fixed_stride")},
                              {"clip_len_s", 2.0},
                              {"stride_s", stride_s},
                              {"min_clip_s", 2.0}},
                             context);
    EXPECT_TRUE(split.is_ok()) << split.status().message();
    EXPECT_TRUE((*split)->process(*batch).is_ok());
    return batch;
  }

  Result<std::unique_ptr<Stage>> transcode(const std::map<std::string, StageParams::Value>& p,
                                           int gpus = 0) {
    StageContext context(reasons_, "transcode_clips", 1, 0);
    context.set_gpus(gpus);
    return build_stage(transcode_clips_spec(), p, context);
  }

  TempDir dir_;
  std::string video_ = dir_.file("keyframes.mp4");
  ReasonTable reasons_;
};

TEST_F(TranscodeClipsStage, ClipsOnKeyframesAreCopiedTheRestEncoded) {
  auto batch = clips(1.0);  // clips at 0, 1, 2, 3, 4 s (5 s: too short)
  auto stage = transcode({{"copy_when_possible", true}});
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  ASSERT_EQ(batch->size(), 6u);  // the video, then its clips
  const std::vector<std::string> methods = {"copy", "encode", "copy", "encode", "copy"};
  const AnnotationColumn* method = batch->find_annotation("transcode_clips_method");
  ASSERT_NE(method, nullptr);
  for (size_t k = 0; k < methods.size(); ++k) {
    const size_t row = k + 1;
    SCOPED_TRACE(row);
    ASSERT_TRUE(batch->kept(row));
    EXPECT_EQ(method->string_at(row), methods[k]);
    EXPECT_EQ(batch->find_annotation("frames")->int_at(row), 50);
    const Payload* payload = batch->payload(row);
    ASSERT_FALSE(payload->members.empty());
    const std::string file = dir_.file("clip" + std::to_string(k) + ".mp4");
    write_file(file, std::string(payload->member_bytes(payload->members[0])));
    ReadBack back = read_video(file);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.codec, "h264");
    EXPECT_EQ(back.frames, 50);
    ASSERT_FALSE(back.times.empty());
    EXPECT_NEAR(back.times.front(), 0, 1e-6);
    EXPECT_NEAR(back.times.back(), 49 / 25.0, 1e-6);
  }
}

TEST_F(TranscodeClipsStage, WithoutTheSettingEveryClipIsEncoded) {
  auto batch = clips(2.0);
  auto stage = transcode({});
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  ASSERT_EQ(batch->size(), 4u);
  for (size_t row = 1; row < batch->size(); ++row) {
    EXPECT_EQ(batch->find_annotation("transcode_clips_method")->string_at(row), "encode");
  }
}

TEST_F(TranscodeClipsStage, NvencWithoutAGpuIsRefusedAtLoadNamingTheEncoder) {
  auto stage = transcode({{"encoder", std::string("h264_nvenc")}});
  ASSERT_FALSE(stage.is_ok());
  EXPECT_NE(stage.status().message().find("encoder"), std::string::npos);
  EXPECT_NE(stage.status().message().find("h264_nvenc"), std::string::npos)
      << stage.status().message();
  // Given a GPU, NVENC is tried when the stage is built: where it does not open (no device,
  // no driver, a GPU without NVENC) that is the error, naming it, not a crash or failed clips.
  auto with_gpu = transcode({{"encoder", std::string("h264_nvenc")}}, 1);
  if (!check_video_encoder("h264_nvenc").is_ok()) {
    ASSERT_FALSE(with_gpu.is_ok());
    EXPECT_NE(with_gpu.status().message().find("h264_nvenc"), std::string::npos)
        << with_gpu.status().message();
  }
  auto unknown = transcode({{"encoder", std::string("nope264")}});
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.status().message().find("nope264"), std::string::npos);
}

TEST_F(TranscodeClipsStage, AutoTakesLibx264WithoutNvenc) {
  const bool nvenc = check_video_encoder("h264_nvenc").is_ok();
  for (int gpus : {0, 1}) {
    SCOPED_TRACE(gpus);
    auto stage = transcode({{"encoder", std::string("auto")}}, gpus);
    ASSERT_TRUE(stage.is_ok()) << stage.status().message();
    if (gpus > 0 && nvenc) continue;  // a machine with NVENC: auto takes it
    auto batch = clips(2.0);
    ASSERT_TRUE((*stage)->process(*batch).is_ok());
    ASSERT_EQ(batch->size(), 4u);
    for (size_t row = 1; row < batch->size(); ++row) {
      ASSERT_TRUE(batch->kept(row));
      // x264 signs its streams (an SEI message with its version and settings).
      const Payload* payload = batch->payload(row);
      EXPECT_NE(payload->member_bytes(payload->members[0]).find("x264 - core"),
                std::string_view::npos);
    }
  }
}

}  // namespace
}  // namespace winnow::testing
