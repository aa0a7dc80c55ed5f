// metas/<clip id>.json: the clip's facts, its scores by stage, and its captions — the caption
// stage's windows laid out like the rest of the file, or an empty list without them.
#include "io/clip_meta.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

namespace winnow {
namespace {

std::unique_ptr<DocBatch> clip_batch() {
  auto batch = std::make_unique<DocBatch>();
  batch->add_item(DocKey::make(0, 0), ItemKind::kClip, "clip-a",
                  Payload::of_file("/videos/a.mp4", "video/mp4"), 1);
  batch->add_item(DocKey::make(0, 1), ItemKind::kClip, "clip-b",
                  Payload::of_file("/videos/a.mp4", "video/mp4"), 2);
  batch->annotation("source_video", AnnotationType::kString).set_string(0, "/videos/a.mp4");
  batch->annotation("span_start_s", AnnotationType::kFloat).set_float(0, 1.5);
  batch->annotation("span_end_s", AnnotationType::kFloat).set_float(0, 4.0);
  batch->annotation("frames", AnnotationType::kInt).set_int(0, 62);
  batch->annotation("motion_filter", AnnotationType::kFloat).set_float(0, 0.25);
  batch->annotation("captions", AnnotationType::kString)
      .set_string(0, R"([{"window":0,"span_s":[1.5,4],"frames":5,"text":"A \"red\" car."}])");
  return batch;
}

TEST(ClipMeta, CaptionsAreWrittenAsJsonBesideTheScores) {
  auto batch = clip_batch();
  const std::string meta = clip_meta_json(*batch, 0);
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.parse(meta);
  EXPECT_EQ(root["id"].get_string().value(), "clip-a");
  EXPECT_EQ(root["frames"].get_int64().value(), 62);
  EXPECT_EQ(root["scores"]["motion_filter"].get_double().value(), 0.25);
  EXPECT_TRUE(root["scores"]["captions"].error());  // a caption is not a score
  simdjson::dom::array captions = root["captions"].get_array();
  ASSERT_EQ(captions.size(), 1u);
  EXPECT_EQ(captions.at(0)["text"].get_string().value(), "A \"red\" car.");
  EXPECT_EQ(captions.at(0)["span_s"].at(1).get_double().value(), 4.0);
  EXPECT_EQ(captions.at(0)["frames"].get_int64().value(), 5);
  // Laid out like the rest of the file: one member a line.
  EXPECT_THAT(meta, ::testing::HasSubstr("\n      \"window\": 0,\n"));
}

TEST(ClipMeta, AClipWithoutCaptionsHasAnEmptyList) {
  auto batch = clip_batch();
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.parse(clip_meta_json(*batch, 1));
  EXPECT_EQ(root["captions"].get_array().size(), 0u);
}

}  // namespace
}  // namespace winnow
