// VideoFileReader: a good video becomes one probed item; every kind of bad video file becomes an
// error record naming the file (the pipeline tests check both on_error policies end to end).
#include "io/video_file_reader.h"

#include <gtest/gtest.h>

#include "synthetic_video.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

std::string good_video(const TempDir& dir, const std::string& name) {
  std::string path = dir.file(name), error;
  VideoSpec spec;  // 96x64, 25 fps, 50 frames
  EXPECT_TRUE(write_video(path, spec, shots_painter({25}), &error)) << error;
  return path;
}

std::unique_ptr<DocBatch> read_one(const std::string& path) {
  VideoFileReader reader(path, 3);
  auto batch = reader.next();
  auto end = reader.next();
  EXPECT_TRUE(end && end->end_of_shard);
  EXPECT_EQ(reader.next(), nullptr);
  return batch;
}

// The error kind of a file that should be refused, checking its message names the file.
std::string refused(const std::string& path) {
  auto batch = read_one(path);
  EXPECT_EQ(batch->size(), 0u) << path << " was read as a video";
  if (batch->errors.size() != 1) return "no error";
  EXPECT_EQ(batch->errors[0].message.rfind(path + ": ", 0), 0u) << batch->errors[0].message;
  return std::string(input_error_name(batch->errors[0].kind));
}

// `bytes` with every `from` replaced by `to` (same length).
std::string patched(std::string bytes, const std::string& from, const std::string& to) {
  for (size_t at = bytes.find(from); at != std::string::npos; at = bytes.find(from, at + 1)) {
    bytes.replace(at, from.size(), to);
  }
  return bytes;
}

TEST(VideoFileReader, AGoodVideoIsOneProbedItem) {
  TempDir dir;
  for (const char* name : {"a.mp4", "b.mkv"}) {
    SCOPED_TRACE(name);
    std::string path = good_video(dir, name);
    auto batch = read_one(path);
    ASSERT_EQ(batch->size(), 1u);
    EXPECT_TRUE(batch->errors.empty());
    EXPECT_EQ(batch->kind(0), ItemKind::kVideo);
    EXPECT_EQ(batch->id(0), name);
    EXPECT_EQ(batch->key(0), DocKey::make(3, 0));
    EXPECT_EQ(batch->payload(0)->path, path);
    auto f = [&](const char* column) { return batch->find_annotation(column); };
    EXPECT_EQ(f("source_video")->string_at(0), path);
    EXPECT_EQ(f("video_codec")->string_at(0), "h264");
    EXPECT_DOUBLE_EQ(f("fps")->float_at(0), 25);
    EXPECT_NEAR(f("duration_s")->float_at(0), 2.0, 0.05);
    EXPECT_EQ(f("frames")->int_at(0), 50);
    EXPECT_EQ(f("width")->int_at(0), 96);
    EXPECT_EQ(f("height")->int_at(0), 64);
  }
}

TEST(VideoFileReader, BadFilesAreErrorRecordsNamingTheFile) {
  TempDir dir;
  const std::string mp4 = read_file(good_video(dir, "good.mp4"));
  const std::string mkv = read_file(good_video(dir, "good.mkv"));
  write_file(dir.file("empty.mp4"), "");
  EXPECT_EQ(refused(dir.file("empty.mp4")), "empty_file");
  write_file(dir.file("text.mp4"), "just some words, no video at all\n");
  EXPECT_EQ(refused(dir.file("text.mp4")), "unknown_media");
  write_file(dir.file("cut.mp4"), mp4.substr(0, mp4.size() / 2));
  EXPECT_EQ(refused(dir.file("cut.mp4")), "undecodable_video");
  write_file(dir.file("cut.mkv"), mkv.substr(0, mkv.size() * 6 / 10));
  EXPECT_EQ(refused(dir.file("cut.mkv")), "undecodable_video");
  // A codec no decoder here knows (the Matroska codec id of the track renamed).
  write_file(dir.file("codec.mkv"), patched(mkv, "V_MPEG4/ISO/AVC", "V_MPEG4/ISO/XYZ"));
  EXPECT_EQ(refused(dir.file("codec.mkv")), "unsupported_codec");
  EXPECT_EQ(refused(dir.file("missing.mp4")), "unreadable_file");
}

// Every sample lasts 0 ticks and so does the movie (the MP4's time-to-sample table and its
// durations zeroed, its edit list and reordering offsets gone): no frame rate to be had.
TEST(VideoFileReader, AVideoWithoutAFrameRateIsAnError) {
  TempDir dir;
  std::string mp4 = read_file(good_video(dir, "good.mp4"));
  auto u32 = [&](size_t at) {
    return uint32_t(uint8_t(mp4[at])) << 24 | uint32_t(uint8_t(mp4[at + 1])) << 16 |
           uint32_t(uint8_t(mp4[at + 2])) << 8 | uint32_t(uint8_t(mp4[at + 3]));
  };
  auto zero = [&](size_t at) { mp4.replace(at, 4, std::string(4, '\0')); };
  size_t stts = mp4.find("stts");
  ASSERT_NE(stts, std::string::npos);
  const uint32_t entries = u32(stts + 8);
  for (uint32_t e = 0; e < entries; ++e) zero(stts + 12 + 8 * e + 4);
  // Version-0 boxes: the duration follows the type by 20 bytes (mvhd, mdhd) or 24 (tkhd).
  for (const auto& [box, offset] : {std::pair{"mvhd", 20}, {"mdhd", 20}, {"tkhd", 24}}) {
    size_t at = mp4.find(box);
    ASSERT_NE(at, std::string::npos) << box;
    zero(at + size_t(offset));
  }
  for (const char* box : {"edts", "ctts"}) {  // the edit list, the B-frames' reordering
    if (size_t at = mp4.find(box); at != std::string::npos) mp4.replace(at, 4, "free");
  }
  write_file(dir.file("nofps.mp4"), mp4);
  EXPECT_EQ(refused(dir.file("nofps.mp4")), "bad_frame_rate");
}

}  // namespace
}  // namespace winnow::testing
