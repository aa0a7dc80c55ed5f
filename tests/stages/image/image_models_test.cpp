// image_embed, image_aesthetic_filter and image_nsfw_filter with small seeded models
// (tests/models/vision_test_model.py) on real pictures from this machine: embeddings equal
// the reference (Pillow's decode and resize, transformers' preprocessing steps, the model in
// numpy float64) to 1e-5; heads' scores equal numpy's and decide by NeMo's rules; batch sizes
// do not change a value; models that do not fit fail at load time with the reason.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "models/vision_test_models.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

std::unique_ptr<DocBatch> picture_batch(const std::vector<std::string>& paths) {
  auto batch = std::make_unique<DocBatch>();
  for (size_t i = 0; i < paths.size(); ++i) {
    batch->add_item(DocKey::make(0, i), ItemKind::kImage, paths[i],
                    Payload::of_bytes(read_file(paths[i]), "image/unknown"), 0);
  }
  return batch;
}

std::vector<std::vector<float>> vectors_of(const DocBatch& batch, const std::string& field) {
  std::vector<std::vector<float>> out;
  const AnnotationColumn* column = batch.find_annotation(field);
  for (size_t i = 0; i < batch.size(); ++i) {
    if (column && column->has(i)) {
      auto v = column->vector_at(i);
      out.emplace_back(v.begin(), v.end());
    } else {
      out.emplace_back();
    }
  }
  return out;
}

class ImageModels : public ::testing::Test {
 protected:
  void SetUp() override {
    pictures_ = machine_pictures(10);
    ASSERT_GE(pictures_.size(), 4u);
    vision_script(fmt::format("encoder {} --size 48 --patch 8 --width 16 --embed 12",
                              dir_.file("clip")));
  }

  std::unique_ptr<DocBatch> embed(const std::map<std::string, StageParams::Value>& params) {
    StageContext context(reasons_, "embed", 0, 0);
    auto stage = build_stage(image_embed_spec(), params, context);
    EXPECT_TRUE(stage.is_ok()) << stage.status().message();
    auto batch = picture_batch(pictures_);
    if (stage.is_ok()) {
      Status status = (*stage)->process(*batch);
      EXPECT_TRUE(status.is_ok()) << status.message();
    }
    return batch;
  }

  TempDir dir_;
  ReasonTable reasons_;
  std::vector<std::string> pictures_;
};

TEST_F(ImageModels, EmbeddingsMatchTheReference) {
  auto batch = embed({{"model", dir_.file("clip")}, {"batch_size", int64_t{3}}});
  const auto ours = vectors_of(*batch, "embedding");
  const auto reference = vision_reference("embed", dir_.file("clip"), pictures_, dir_.path());
  for (size_t p = 0; p < pictures_.size(); ++p) {
    ASSERT_EQ(ours[p].size(), 12u) << pictures_[p];
    double worst = 0;
    for (size_t d = 0; d < 12; ++d) worst = std::max(worst, std::fabs(ours[p][d] - reference[p][d]));
    EXPECT_LT(worst, 1e-5) << pictures_[p];
  }
}

TEST_F(ImageModels, BatchSizeAndOutputChoice) {
  auto one = vectors_of(*embed({{"model", dir_.file("clip")}, {"batch_size", int64_t{1}}}),
                        "embedding");
  auto all = vectors_of(*embed({{"model", dir_.file("clip")}, {"batch_size", int64_t{64}}}),
                        "embedding");
  EXPECT_EQ(one, all);
  // pooler_output, not normalised, into another field.
  auto pooled = embed({{"model", dir_.file("clip")},
                       {"output", std::string("pooler_output")},
                       {"normalize", false},
                       {"field", std::string("pooled")}});
  const auto reference = vision_reference("embed", dir_.file("clip"), pictures_, dir_.path(),
                                          "--output pooler_output --no-normalize");
  const auto ours = vectors_of(*pooled, "pooled");
  for (size_t p = 0; p < pictures_.size(); ++p) {
    ASSERT_EQ(ours[p].size(), 16u);
    for (size_t d = 0; d < 16; ++d) EXPECT_NEAR(ours[p][d], reference[p][d], 1e-5);
  }
}

TEST_F(ImageModels, WorkingImageDecodeIsClose) {
  // decode: working resizes from the shared working image: not the model's own input, but
  // near it (the same picture through one more reduction).
  auto full = vectors_of(*embed({{"model", dir_.file("clip")}}), "embedding");
  auto working =
      vectors_of(*embed({{"model", dir_.file("clip")}, {"decode", std::string("working")}}),
                 "embedding");
  for (size_t p = 0; p < pictures_.size(); ++p) {
    double dot = 0;
    for (size_t d = 0; d < full[p].size(); ++d) dot += full[p][d] * working[p][d];
    EXPECT_GT(dot, 0.98) << pictures_[p];
  }
}

TEST_F(ImageModels, UndecodableImagesAreErrorRecords) {
  StageContext context(reasons_, "embed", 0, 0);
  context.set_skip_errors(true);
  auto stage = build_stage(image_embed_spec(), {{"model", dir_.file("clip")}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = std::make_unique<DocBatch>();
  batch->add_item(DocKey::make(0, 0), ItemKind::kImage, "bad",
                  Payload::of_bytes("\x89PNG\r\n\x1a\n not really", "image/png"), 0);
  batch->add_item(DocKey::make(0, 1), ItemKind::kImage, "good",
                  Payload::of_bytes(read_file(pictures_[0]), "image/png"), 0);
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  EXPECT_EQ(reasons_of(*batch, reasons_),
            (std::vector<std::string>{"embed/undecodable_image", "kept"}));
  EXPECT_EQ(vectors_of(*batch, "embedding")[1].size(), 12u);
}

TEST_F(ImageModels, ModelsThatDoNotFitFailAtLoad) {
  auto load_error = [&](const std::map<std::string, StageParams::Value>& params) {
    StageContext context(reasons_, "embed", 0, 0);
    auto stage = build_stage(image_embed_spec(), params, context);
    return stage.is_ok() ? std::string("loaded") : stage.status().message();
  };
  // The config crops to 40, the model takes 48.
  write_file(dir_.file("clip") + "/preprocessor_config.json",
             R"({"size": {"shortest_edge": 40}, "crop_size": 40, "do_center_crop": true,
                 "resample": 3, "image_mean": [0.5, 0.5, 0.5], "image_std": [0.5, 0.5, 0.5]})");
  EXPECT_NE(load_error({{"model", dir_.file("clip")}}).find("shape"), std::string::npos);
  // No crop after a shortest-edge resize: sizes would vary.
  write_file(dir_.file("clip") + "/preprocessor_config.json",
             R"({"size": {"shortest_edge": 48}, "resample": 3, "do_normalize": false})");
  EXPECT_NE(load_error({{"model", dir_.file("clip")}}).find("shortest edge"), std::string::npos);
  EXPECT_NE(load_error({{"model", dir_.file("nothing")}}).find("preprocessor_config.json"),
            std::string::npos);
  // A head is not an image encoder.
  vision_script("head " + dir_.file("head.onnx"));
  std::filesystem::create_directories(dir_.file("notvision"));
  std::filesystem::copy_file(dir_.file("head.onnx"), dir_.file("notvision/model.onnx"));
  write_file(dir_.file("notvision/preprocessor_config.json"),
             R"({"size": {"height": 8, "width": 8}, "resample": 2, "do_normalize": false})");
  EXPECT_NE(load_error({{"model", dir_.file("notvision")}}).find("has shape"), std::string::npos);
  EXPECT_NE(load_error({{"model", dir_.file("clip")}, {"decode", std::string("half")}})
                .find("full or working"),
            std::string::npos);
}

TEST_F(ImageModels, HeadsScoreAndDecideAsNemo) {
  vision_script("head " + dir_.file("aesthetic.onnx") + " --input 12 --seed 5");
  vision_script("head " + dir_.file("nsfw.onnx") + " --input 12 --seed 6 --rank1");
  auto batch = embed({{"model", dir_.file("clip")}, {"normalize", false}});
  const auto raw = vectors_of(*batch, "embedding");
  std::string vectors = "[";
  for (size_t p = 0; p < raw.size(); ++p) {
    vectors += p ? ",[" : "[";
    for (size_t d = 0; d < raw[p].size(); ++d) vectors += fmt::format("{}{:.9g}", d ? "," : "", raw[p][d]);
    vectors += "]";
  }
  write_file(dir_.file("vectors.json"), vectors + "]");
  auto scores_of = [&](const std::string& head) {
    vision_script("score " + head + " " + dir_.file("vectors.json") + " " + dir_.file("s.json"));
    simdjson::dom::parser parser;
    std::vector<double> scores;
    for (double s : parser.load(dir_.file("s.json")).get_array()) scores.push_back(s);
    return scores;
  };
  const auto aesthetic = scores_of(dir_.file("aesthetic.onnx"));
  const auto nsfw = scores_of(dir_.file("nsfw.onnx"));
  // Thresholds halfway between two middle scores, so each head keeps some and drops some and
  // float rounding cannot move an item across.
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  const double min_score = median(aesthetic), max_score = median(nsfw);
  StageContext a_context(reasons_, "aesthetic", 1, 0), n_context(reasons_, "nsfw", 2, 0);
  auto a = build_stage(image_aesthetic_filter_spec(),
                       {{"model", dir_.file("aesthetic.onnx")}, {"min_score", min_score},
                        {"batch_size", int64_t{4}}},
                       a_context);
  auto n = build_stage(image_nsfw_filter_spec(),
                       {{"model", dir_.file("nsfw.onnx")}, {"max_score", max_score}}, n_context);
  ASSERT_TRUE(a.is_ok()) << a.status().message();
  ASSERT_TRUE(n.is_ok()) << n.status().message();
  auto expected_batch = picture_batch(pictures_);
  ASSERT_TRUE((*a)->process(*batch).is_ok());
  ASSERT_TRUE((*n)->process(*batch).is_ok());
  const AnnotationColumn* a_column = batch->find_annotation("aesthetic");
  const AnnotationColumn* n_column = batch->find_annotation("nsfw");
  ASSERT_NE(a_column, nullptr);
  for (size_t p = 0; p < pictures_.size(); ++p) {
    EXPECT_NEAR(a_column->float_at(p), aesthetic[p], 1e-4);
    std::string expected = "kept";
    if (!(aesthetic[p] >= min_score)) {
      expected = "aesthetic/low_aesthetic";
      EXPECT_NEAR(batch->drop_score(p), aesthetic[p], 1e-4);
    } else if (nsfw[p] >= max_score) {
      expected = "nsfw/nsfw";
      EXPECT_NEAR(n_column->float_at(p), nsfw[p], 1e-4);
    }
    EXPECT_EQ(reason_of(*batch, reasons_, p), expected) << pictures_[p];
  }
  // A head without its embedding: the run fails, naming the item and the field.
  StageContext context(reasons_, "aesthetic2", 3, 0);
  auto lonely = build_stage(image_aesthetic_filter_spec(),
                            {{"model", dir_.file("aesthetic.onnx")}}, context);
  ASSERT_TRUE(lonely.is_ok());
  Status status = (*lonely)->process(*expected_batch);
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("no 'embedding' vector"), std::string::npos);
}

}  // namespace
}  // namespace winnow::testing
