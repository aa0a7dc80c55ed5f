// VisionPreprocessor against transformers' steps written out in Python on Pillow's decode and
// resize (tests/models/vision_test_model.py preprocess): the CLIP (shortest edge, bicubic,
// centre crop), ViT (square, bilinear) and SigLIP (square, bicubic) settings, on real pictures
// from this machine; and the config errors.
#include "media/vision_preprocessor.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>

#include "models/vision_test_models.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

void expect_same_tensors(const std::string& preprocessor, int size) {
  TempDir dir;
  vision_script(fmt::format("encoder {} --size {} --preprocessor {}", dir.path(), size,
                            preprocessor));
  auto loaded = VisionPreprocessor::load(dir.file("preprocessor_config.json"));
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message();
  const VisionPreprocessor& pre = loaded.value();
  const auto pictures = machine_pictures(8);
  ASSERT_GE(pictures.size(), 4u);
  const auto reference = vision_reference("preprocess", dir.path(), pictures, dir.path());
  ASSERT_EQ(reference.size(), pictures.size());
  for (size_t p = 0; p < pictures.size(); ++p) {
    ImagePixels image;
    ASSERT_TRUE(decode_full_image(read_file(pictures[p]), image, nullptr)) << pictures[p];
    int w = 0, h = 0;
    pre.output_size(image.width, image.height, w, h);
    ASSERT_EQ(static_cast<size_t>(3) * w * h, reference[p].size()) << pictures[p];
    std::vector<float> tensor(reference[p].size());
    pre.to_tensor(image, tensor.data());
    size_t differing = 0;
    double worst = 0;
    for (size_t i = 0; i < tensor.size(); ++i) {
      const double d = std::fabs(tensor[i] - reference[p][i]);
      differing += d > 1e-6;
      worst = std::max(worst, d);
    }
    EXPECT_EQ(differing, 0u) << preprocessor << " " << pictures[p] << ": worst " << worst;
  }
}

TEST(VisionPreprocessor, ClipMatchesTransformersSteps) { expect_same_tensors("clip", 48); }
TEST(VisionPreprocessor, VitMatchesTransformersSteps) { expect_same_tensors("vit", 40); }
TEST(VisionPreprocessor, SiglipMatchesTransformersSteps) { expect_same_tensors("siglip", 32); }

TEST(VisionPreprocessor, CropLargerThanTheImagePadsWithZeros) {
  VisionPreprocessing s;
  s.resize = false;
  s.center_crop = true;
  s.crop_width = 4;
  s.crop_height = 1;
  s.rescale = false;
  s.normalize = false;
  VisionPreprocessor pre(s);
  ImagePixels image;
  image.width = 2;
  image.height = 3;
  image.bgr = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
  std::vector<float> out(3 * 4);
  pre.to_tensor(image, out.data());
  // Rows: the middle one (3 // 2 = 1); columns: the 2 pixels centred in 4 (ceil(2 / 2) = 1).
  // Planes are R, G, B: BGR (7,8,9) and (10,11,12) give R 9 and 12.
  EXPECT_EQ(out, (std::vector<float>{0, 9, 12, 0, 0, 8, 11, 0, 0, 7, 10, 0}));
}

TEST(VisionPreprocessor, ConfigErrorsNameTheFileAndKey) {
  TempDir dir;
  auto error_for = [&](const std::string& json) {
    write_file(dir.file("p.json"), json);
    auto loaded = VisionPreprocessor::load(dir.file("p.json"));
    return loaded.is_ok() ? std::string("loaded") : loaded.status().message();
  };
  EXPECT_NE(error_for("[1]").find("p.json"), std::string::npos);
  EXPECT_NE(error_for(R"({"resample": 3, "image_mean": [0,0,0], "image_std": [1,1,1]})")
                .find("'size' is missing"),
            std::string::npos);
  EXPECT_NE(error_for(R"({"size": 8, "resample": 1, "image_mean": [0,0,0], "image_std": [1,1,1]})")
                .find("'resample' is 1"),
            std::string::npos);
  EXPECT_NE(error_for(R"({"size": {"longest_edge": 8}, "resample": 3})").find("longest_edge"),
            std::string::npos);
  EXPECT_NE(error_for(R"({"size": 8, "resample": 3, "do_center_crop": true})").find("crop_size"),
            std::string::npos);
  EXPECT_NE(error_for(R"({"size": 8, "resample": 3, "image_mean": [0,0], "image_std": [1,1,1]})")
                .find("image_mean"),
            std::string::npos);
  EXPECT_EQ(error_for(R"({"size": 8, "resample": 3, "do_normalize": false})"), "loaded");
}

}  // namespace
}  // namespace winnow::testing
