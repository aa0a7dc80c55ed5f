// media/video_codecs.h and media/clip_measures.h on synthetic videos written with FFmpeg's
// libraries directly (tools/synthetic_video.h); clips read back the same way.
#include "media/video_codecs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "media/clip_measures.h"
#include "media/shot_detector.h"
#include "synthetic_video.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

std::string make_video(const TempDir& dir, const std::string& name, const VideoSpec& spec,
                       const FramePainter& paint) {
  std::string path = dir.file(name), error;
  EXPECT_TRUE(write_video(path, spec, paint, &error)) << error;
  return path;
}

TEST(VideoCodecs, ShotDetectionFindsHardCutsOfAnEncodedVideoAndNoneInStaticOrPanningShots) {
  TempDir dir;
  // Scenes cut at 40, 95, 150, 190; a static texture from 190, a slow pan over the texture's
  // negative from 260.
  const std::vector<int> cuts = {40, 95, 150, 190, 260};
  auto paint = [scenes = shots_painter({40, 95, 150})](int i, int w, int h, uint8_t* p) {
    if (i >= 260) {
      paint_texture(0.5, i - 260, w, h, p);
      for (int k = 0; k < w * h * 3; ++k) p[k] = static_cast<uint8_t>(255 - p[k]);
      return;
    }
    if (i >= 190) return paint_texture(0, 0, w, h, p);
    scenes(i, w, h, p);
  };
  VideoSpec spec;
  spec.frames = 330;
  std::string path = make_video(dir, "shots.mp4", spec, paint);
  ShotDetector detector({});
  FrameRequest request;
  request.width = 64;
  int frames = 0;
  ASSERT_TRUE(decode_video_frames(path, request, [&](VideoFrame& f) {
                EXPECT_EQ(f.index, frames++);
                detector.add(f.bgr.data(), f.width, f.height);
                return true;
              }).is_ok());
  EXPECT_EQ(frames, 330);
  std::vector<int64_t> found = detector.cuts();
  int hits = 0;
  for (int cut : cuts) {
    for (int64_t f : found) hits += std::abs(f - cut) <= 2 ? 1 : 0;
  }
  EXPECT_GE(hits, int(std::ceil(0.95 * cuts.size())));
  EXPECT_EQ(found.size(), cuts.size()) << "a cut where there is none";
}

// Frame i shows a white 8x8 square at ((i % 10) * 8, (i / 10) * 6): where it is tells which
// source frame a clip's frame is.
void paint_counter(int i, int w, int h, uint8_t* p) {
  std::fill(p, p + size_t(w) * h * 3, 30);
  const int x0 = (i % 10) * 8, y0 = (i / 10) * 6;
  for (int y = y0; y < y0 + 8 && y < h; ++y) {
    for (int x = x0; x < x0 + 8 && x < w; ++x) std::fill_n(p + (size_t(y) * w + x) * 3, 3, 255);
  }
}

int counter_of(const VideoFrame& f) {
  double sx = 0, sy = 0, n = 0;
  for (int y = 0; y < f.height; ++y) {
    for (int x = 0; x < f.width; ++x) {
      if (f.bgr[(size_t(y) * f.width + x) * 3 + 1] > 140) {
        sx += x;
        sy += y;
        ++n;
      }
    }
  }
  if (n == 0) return -1;
  return int(std::lround((sy / n - 3.5) / 6)) * 10 + int(std::lround((sx / n - 3.5) / 8));
}

// `file` decodes to `count` frames whose counters run from `first` to `last`.
void expect_counter_frames(const std::string& file, int count, int first, int last) {
  std::vector<int> seen;
  ASSERT_TRUE(decode_video_frames(file, {}, [&](VideoFrame& f) {
                seen.push_back(counter_of(f));
                return true;
              }).is_ok());
  ASSERT_EQ(int(seen.size()), count);
  EXPECT_EQ(seen.front(), first);
  EXPECT_EQ(seen.back(), last);
}

TEST(VideoCodecs, TranscodedClipsAreFrameAccurateAndDecode) {
  TempDir dir;
  VideoSpec spec;
  spec.frames = 100;  // keyframes at 0 and 50
  spec.height = 96;
  std::string path = make_video(dir, "counter.mp4", spec, paint_counter);
  // Frames 13-36, 30-74 (across the keyframe at 50), 51-99; one starts between keyframes.
  const std::vector<ClipSpan> spans = {{0.52, 1.48}, {1.2, 3.0}, {2.04, 4.0}};
  const std::vector<std::pair<int, int>> frames = {{13, 36}, {30, 74}, {51, 99}};
  std::vector<EncodedClip> clips;
  ASSERT_TRUE(transcode_clips(path, spans, EncodeSettings{}, clips).is_ok());
  ASSERT_EQ(clips.size(), spans.size());
  for (size_t k = 0; k < clips.size(); ++k) {
    SCOPED_TRACE(k);
    ASSERT_TRUE(clips[k].error.empty()) << clips[k].error;
    const int expected = frames[k].second - frames[k].first + 1;
    EXPECT_EQ(clips[k].frames, expected);
    EXPECT_NEAR(clips[k].first_s, spans[k].begin_s, 1 / 25.0);
    EXPECT_NEAR(clips[k].last_s + 1 / 25.0, spans[k].end_s, 1 / 25.0);
    std::string file = dir.file("clip" + std::to_string(k) + ".mp4");
    write_file(file, clips[k].mp4);
    ReadBack back = read_video(file);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.codec, "h264");
    EXPECT_EQ(back.frames, expected);
    EXPECT_EQ(back.width, 96);
    EXPECT_EQ(back.height, 96);
    EXPECT_NEAR(back.fps, 25, 0.01);
    ASSERT_FALSE(back.times.empty());
    EXPECT_NEAR(back.times.front(), 0, 1e-6);
    EXPECT_NEAR(back.times.back(), (expected - 1) / 25.0, 1e-6);
    // The first and last frames are the source's frames at the span's ends.
    expect_counter_frames(file, expected, frames[k].first, frames[k].second);
    EXPECT_EQ(clips[k].preview_jpg.substr(0, 2), "\xFF\xD8");
  }
}

// A source with a sine track (AAC, as lavfi's sine source encoded): each clip carries the
// audio of its span, copied, starting with its first frame and as long as its frames (within
// an AAC frame at each end, 1024 samples); keep_audio: false leaves it out. Read back with
// libavformat directly.
TEST(VideoCodecs, ClipsKeepTheSourcesAudioUnlessAskedNot) {
  TempDir dir;
  VideoSpec spec;
  spec.frames = 100;  // 4 s
  spec.audio_hz = 440;
  std::string path = make_video(dir, "sine.mp4", spec, paint_counter);
  ReadBack source = read_video(path);
  ASSERT_TRUE(source.ok) << source.error;
  ASSERT_EQ(source.audio_codec, "aac");
  const std::vector<ClipSpan> spans = {{0.0, 1.0}, {1.2, 3.0}, {2.04, 4.0}};
  std::vector<EncodedClip> clips;
  ASSERT_TRUE(transcode_clips(path, spans, EncodeSettings{}, clips).is_ok());
  const double aac_frame = 1024 / 48000.0;
  for (size_t k = 0; k < clips.size(); ++k) {
    SCOPED_TRACE(k);
    ASSERT_TRUE(clips[k].error.empty()) << clips[k].error;
    EXPECT_TRUE(clips[k].audio);
    std::string file = dir.file("clip" + std::to_string(k) + ".mp4");
    write_file(file, clips[k].mp4);
    ReadBack back = read_video(file);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.audio_codec, "aac");
    const double seconds = back.frames / 25.0;
    EXPECT_NEAR(back.audio_seconds, seconds, 2 * aac_frame);
    EXPECT_GE(back.audio_first_s, -aac_frame);
    EXPECT_LE(back.audio_first_s, aac_frame);
  }
  EncodeSettings silent;
  silent.keep_audio = false;
  std::vector<EncodedClip> quiet;
  ASSERT_TRUE(transcode_clips(path, spans, silent, quiet).is_ok());
  for (size_t k = 0; k < quiet.size(); ++k) {
    EXPECT_FALSE(quiet[k].audio);
    std::string file = dir.file("quiet" + std::to_string(k) + ".mp4");
    write_file(file, quiet[k].mp4);
    ReadBack back = read_video(file);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.audio_codec, "");
    EXPECT_EQ(back.frames, read_video(dir.file("clip" + std::to_string(k) + ".mp4")).frames);
  }
}

// copy_when_possible on a source with a keyframe every 50 frames (2 s): clips from one keyframe
// to the next (or to the end) are copied, decode with every frame in place and start at 0 with
// their audio; a clip starting between keyframes, or starting on one and ending between two,
// is encoded as before. Without the setting nothing is copied.
TEST(VideoCodecs, ClipsOnKeyframesAreCopiedWhenAsked) {
  TempDir dir;
  VideoSpec spec;
  spec.frames = 150;  // 6 s, keyframes at 0, 2 and 4 s
  spec.gop = 50;
  spec.height = 96;
  spec.audio_hz = 440;
  std::string path = make_video(dir, "counter.mp4", spec, paint_counter);
  const std::vector<ClipSpan> spans = {{0, 2}, {2, 4}, {4, 6}, {0.52, 1.48}, {2, 3}};
  const std::vector<std::pair<int, int>> frames = {
      {0, 49}, {50, 99}, {100, 149}, {13, 36}, {50, 74}};
  const std::vector<bool> copied = {true, true, true, false, false};
  EncodeSettings settings;
  settings.copy_when_possible = true;
  std::vector<EncodedClip> clips;
  ASSERT_TRUE(transcode_clips(path, spans, settings, clips).is_ok());
  ASSERT_EQ(clips.size(), spans.size());
  for (size_t k = 0; k < clips.size(); ++k) {
    SCOPED_TRACE(k);
    ASSERT_TRUE(clips[k].error.empty()) << clips[k].error;
    EXPECT_EQ(clips[k].copied, copied[k]);
    const int expected = frames[k].second - frames[k].first + 1;
    EXPECT_EQ(clips[k].frames, expected);
    EXPECT_EQ(clips[k].width, 96);
    EXPECT_EQ(clips[k].height, 96);
    std::string file = dir.file("clip" + std::to_string(k) + ".mp4");
    write_file(file, clips[k].mp4);
    ReadBack back = read_video(file);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.codec, "h264");
    EXPECT_EQ(back.frames, expected);
    EXPECT_NEAR(back.fps, 25, 0.01);
    ASSERT_FALSE(back.times.empty());
    EXPECT_NEAR(back.times.front(), 0, 1e-6);
    EXPECT_NEAR(back.times.back(), (expected - 1) / 25.0, 1e-6);
    EXPECT_EQ(back.audio_codec, "aac");
    EXPECT_GE(back.audio_first_s, -1024 / 48000.0);
    EXPECT_LE(back.audio_first_s, 1024 / 48000.0);
    expect_counter_frames(file, expected, frames[k].first, frames[k].second);
    EXPECT_EQ(clips[k].preview_jpg.substr(0, 2), "\xFF\xD8");
  }
  std::vector<EncodedClip> encoded;
  ASSERT_TRUE(transcode_clips(path, spans, EncodeSettings{}, encoded).is_ok());
  for (const EncodedClip& clip : encoded) EXPECT_FALSE(clip.copied);
  // Copies are the same bytes on every run.
  std::vector<EncodedClip> again;
  ASSERT_TRUE(transcode_clips(path, spans, settings, again).is_ok());
  for (size_t k = 0; k < spans.size(); ++k) EXPECT_EQ(again[k].mp4, clips[k].mp4);
}

// Only H.264 sources are copied (the clips are H.264 MP4s whatever the source).
TEST(VideoCodecs, OtherCodecsAreEncodedEvenOnKeyframes) {
  TempDir dir;
  VideoSpec spec;
  spec.frames = 100;
  spec.encoder = "mpeg4";
  std::string path = make_video(dir, "mpeg4.mp4", spec, paint_counter);
  EncodeSettings settings;
  settings.copy_when_possible = true;
  std::vector<EncodedClip> clips;
  ASSERT_TRUE(transcode_clips(path, {{0, 2}, {2, 4}}, settings, clips).is_ok());
  for (const EncodedClip& clip : clips) {
    ASSERT_TRUE(clip.error.empty()) << clip.error;
    EXPECT_FALSE(clip.copied);
    EXPECT_EQ(clip.frames, 50);
  }
}

TEST(VideoCodecs, TranscodedBytesAreTheSameWhateverRunsBeside) {
  TempDir dir;
  VideoSpec spec;
  spec.frames = 60;
  std::string path = make_video(dir, "shots.mp4", spec, shots_painter({20, 41}));
  const std::vector<ClipSpan> spans = {{0, 1.2}, {0.8, 2.4}};
  std::vector<EncodedClip> alone, first, second;
  ASSERT_TRUE(transcode_clips(path, spans, EncodeSettings{}, alone).is_ok());
  std::thread a(
      [&] { ASSERT_TRUE(transcode_clips(path, spans, EncodeSettings{}, first).is_ok()); });
  std::thread b(
      [&] { ASSERT_TRUE(transcode_clips(path, spans, EncodeSettings{}, second).is_ok()); });
  a.join();
  b.join();
  for (size_t k = 0; k < spans.size(); ++k) {
    ASSERT_FALSE(alone[k].mp4.empty());
    EXPECT_EQ(alone[k].mp4, first[k].mp4);
    EXPECT_EQ(alone[k].mp4, second[k].mp4);
    EXPECT_EQ(alone[k].preview_jpg, first[k].preview_jpg);
  }
}

struct Motions {
  ClipMotion still, pan, noise;
};

Motions measure(const std::string& encoder, const std::string& ext) {
  TempDir dir;
  VideoSpec spec;
  spec.encoder = encoder;
  spec.fps = 10;
  spec.frames = 30;
  auto motion = [&](const std::string& name, const FramePainter& paint) {
    auto m = measure_clip_motion(make_video(dir, name + ext, spec, paint), {0, 3}, MotionOptions{});
    EXPECT_TRUE(m.is_ok()) << m.status().message();
    return m.is_ok() ? m.value() : ClipMotion{};
  };
  return {motion("still", [](int i, int w, int h, uint8_t* p) { paint_texture(0, i, w, h, p); }),
          motion("pan", [](int i, int w, int h, uint8_t* p) { paint_texture(1, i, w, h, p); }),
          motion("noise", paint_noise)};
}

TEST(ClipMeasures, MotionFromH264VectorsRanksStillBelowPanBelowNoise) {
  Motions m = measure("libx264", ".mp4");
  EXPECT_TRUE(m.still.from_vectors && m.pan.from_vectors && m.noise.from_vectors);
  EXPECT_LT(m.still.global_mean, m.pan.global_mean);
  EXPECT_LT(m.pan.global_mean, m.noise.global_mean);
  // The anchor's threshold tells the still shot from the pan.
  EXPECT_LT(m.still.global_mean, 0.00098);
  EXPECT_GT(m.pan.global_mean, 0.00098);
  EXPECT_LE(m.pan.min_patch_mean, m.pan.global_mean * 1.0001);
}

TEST(ClipMeasures, MotionFromBlockMatchingWhenTheCodecHasNoVectors) {
  Motions m = measure("mjpeg", ".mkv");  // every frame intra: no vectors
  EXPECT_FALSE(m.still.from_vectors || m.pan.from_vectors || m.noise.from_vectors);
  EXPECT_GT(m.still.frames, 0);
  EXPECT_LT(m.still.global_mean, m.pan.global_mean);
  EXPECT_LT(m.pan.global_mean, m.noise.global_mean);
}

TEST(ClipMeasures, BlurScoresABlurredCopyBelowItsSource) {
  TempDir dir;
  VideoSpec spec;
  spec.frames = 20;
  spec.fps = 10;
  auto sharp = [](int i, int w, int h, uint8_t* p) { paint_scene(i / 10, i, w, h, p); };
  auto blurred = [&](int i, int w, int h, uint8_t* p) {
    sharp(i, w, h, p);
    box_blur(2, w, h, p);
  };
  auto a = measure_clip_quality(make_video(dir, "sharp.mp4", spec, sharp), {0, 2}, 2, nullptr);
  auto b = measure_clip_quality(make_video(dir, "blurred.mp4", spec, blurred), {0, 2}, 2, nullptr);
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  EXPECT_EQ(a->frames, 4);
  EXPECT_LT(b->blur, a->blur * 0.5);
}

TEST(VideoCodecs, AMissingFileIsAnErrorNotACrash) {
  std::vector<EncodedClip> clips;
  EXPECT_FALSE(transcode_clips("/nonexistent/x.mp4", {{0, 1}}, EncodeSettings{}, clips).is_ok());
  EXPECT_FALSE(
      decode_video_frames("/nonexistent/x.mp4", {}, [](VideoFrame&) { return true; }).is_ok());
}

}  // namespace
}  // namespace winnow::testing
