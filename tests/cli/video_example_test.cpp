// examples/video.yaml through the real binary on the synthetic corpus (tests/media/
// synthetic_video.h: known cuts, a pan, a still shot, a blurred one, two bad files) plus the
// real clip python3-imageio ships: the funnel reconciles, every kept clip is in the anchor's
// layout and decodes (read back with libavformat directly) with the frames its metadata
// names, the output is byte-identical at one and two threads, and bad files stop the run under
// on_error: fail.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "synthetic_video.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string kRealVideo =
    "/usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4";

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// A JSON file, parsed by simdjson (not by winnow's writer).
struct Json {
  explicit Json(const std::string& path) : text(read_file(path)), root(parser.parse(text)) {}
  simdjson::padded_string text;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  uint64_t count(std::string_view a, std::string_view b) const {
    return uint64_t(root[a][b].get_uint64().value_unsafe());
  }
};

TEST(VideoExample, ClipsInTheAnchorsLayoutReconcileDecodeAndAreDeterministic) {
  TempDir dir;
  std::string error;
  fs::create_directories(dir.file("corpus"));
  ASSERT_TRUE(write_video_corpus(dir.file("corpus"), &error)) << error;
  const bool real = fs::exists(kRealVideo);
  if (real) fs::copy_file(kRealVideo, dir.file("corpus/realshort.mp4"));
  std::string out;
  ASSERT_EQ(winnow("run " + kSource + "/examples/video.yaml -i " + dir.file("corpus") + " -o " +
                       dir.file("out1") + " --no-progress --threads 1",
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("reconciled"));
  Json summary(dir.file("out1/summary.json"));
  const uint64_t videos = real ? 8 : 7;
  EXPECT_EQ(summary.count("videos", "in"), videos);
  EXPECT_EQ(summary.count("videos", "errors"), 2u);
  EXPECT_EQ(summary.count("videos", "split") + summary.count("videos", "dropped"), videos - 2);
  EXPECT_EQ(summary.count("clips", "made"),
            summary.count("clips", "kept") + summary.count("clips", "dropped"));
  EXPECT_TRUE(summary.root["reconciles"].get_bool().value_unsafe());
  EXPECT_EQ(summary.count("errors_by_kind", "undecodable_video"), 1u);  // cut.mp4
  EXPECT_EQ(summary.count("errors_by_kind", "unknown_media"), 1u);      // notes.mp4
  // The still shot and the blurred one are dropped, with their reason and score.
  EXPECT_EQ(summary.count("dropped_by_reason", "motion_filter/low_motion"), 1u);
  EXPECT_EQ(summary.count("dropped_by_reason", "frame_quality/blurry"), 1u);
  std::string rejected;
  run_command("zstdcat " + dir.file("out1/rejected/*"), &rejected);
  EXPECT_THAT(rejected, HasSubstr("\"reason\":\"low_motion\",\"score\":"));
  EXPECT_THAT(rejected, HasSubstr("\"reason\":\"blurry\",\"score\":"));
  // Four shots of shots.mp4, the pan, the pan in MJPEG (block matching); realshort.mp4 is
  // shorter than a clip.
  const std::vector<std::string> clips = names_in(dir.file("out1/clips"));
  EXPECT_EQ(clips.size(), summary.count("clips", "kept"));
  EXPECT_EQ(clips.size(), 6u);
  for (const std::string& clip : clips) {
    SCOPED_TRACE(clip);
    const std::string id = clip.substr(0, clip.size() - 4);
    ASSERT_TRUE(fs::exists(dir.file("out1/metas/" + id + ".json")));
    Json meta(dir.file("out1/metas/" + id + ".json"));
    EXPECT_EQ(std::string_view(meta.root["id"].get_string().value_unsafe()), id);
    EXPECT_TRUE(fs::exists(dir.file("out1/previews/" + id + ".jpg")));
    ReadBack back = read_video(dir.file("out1/clips/" + clip));
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.codec, "h264");
    EXPECT_EQ(uint64_t(back.frames), meta.root["frames"].get_uint64().value_unsafe());
    EXPECT_EQ(uint64_t(back.width), meta.root["width"].get_uint64().value_unsafe());
    // The span holds the frames (to within one frame) and the clip plays at the source's rate.
    const double fps = meta.root["fps"].get_double().value_unsafe();
    const double begin = meta.root["span_s"].at(0).get_double().value_unsafe();
    const double end = meta.root["span_s"].at(1).get_double().value_unsafe();
    EXPECT_NEAR(back.frames / fps, end - begin, 1.0 / fps);
    EXPECT_NEAR(back.fps, fps, 0.01);
    EXPECT_THAT(std::string(meta.root["source_video"].get_string().value_unsafe()),
                HasSubstr(dir.file("corpus/")));
    std::vector<std::string> scores;
    const simdjson::dom::object by_stage = meta.root["scores"].get_object().value_unsafe();
    for (auto field : by_stage) scores.emplace_back(field.key);
    EXPECT_EQ(scores, (std::vector<std::string>{"motion_filter", "motion_filter_patch_min",
                                                "frame_quality_blur"}));
    EXPECT_EQ(meta.root["captions"].get_array().value_unsafe().size(), 0u);
  }
  // Two threads: the same clips, the same names, the same bytes.
  ASSERT_EQ(winnow("run " + kSource + "/examples/video.yaml -i " + dir.file("corpus") + " -o " +
                       dir.file("out2") + " --no-progress --threads 2",
                   &out),
            0)
      << out;
  EXPECT_EQ(names_in(dir.file("out2/clips")), clips);
  for (const std::string& clip : clips) {
    EXPECT_TRUE(read_file(dir.file("out1/clips/" + clip)) ==
                read_file(dir.file("out2/clips/" + clip)))
        << clip << " differs between one and two threads";
  }
  // on_error: fail stops at the first bad file, naming it.
  std::string yaml = read_file(kSource + "/examples/video.yaml");
  yaml.replace(yaml.find("on_error: skip"), 14, "on_error: fail");
  write_file(dir.file("fail.yaml"), yaml);
  EXPECT_NE(winnow("run " + dir.file("fail.yaml") + " -i " + dir.file("corpus") + " -o " +
                       dir.file("out3") + " --no-progress",
                   &out),
            0);
  EXPECT_THAT(out, ::testing::AnyOf(HasSubstr("cut.mp4: "), HasSubstr("notes.mp4: ")));
}

}  // namespace
}  // namespace winnow::testing
