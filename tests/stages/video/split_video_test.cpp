// split_video on a probed synthetic video: fixed windows with exactly the expected spans, ids
// stable across runs and distinct per span, each clip a reference to its source that inherits
// the video's fields; a video too short for a clip is dropped with its duration; bad
// parameters are refused naming the key.
#include <gtest/gtest.h>

#include "io/video_file_reader.h"
#include "media/synthetic_video.h"
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

}  // namespace
}  // namespace winnow::testing
