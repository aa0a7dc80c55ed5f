// The image filters on hand-made BMPs whose measures are known by hand, and on real images:
//  - vertical stripes one pixel wide, 0 and 255: OpenCV's 3x3 Laplacian is the kernel
//    [2 0 2; 0 -8 0; 2 0 2], so every pixel (borders reflect) is 8 (other - own) = +-2040 and
//    the variance is 2040^2 = 4161600; a flat image has variance 0;
//  - sizes from the header; the decode shared by the stages that need pixels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "media/decoded_images.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

// A 24-bit BMP of width x height, pixel (x, y) grey value `grey(x, y)`.
template <typename F>
std::string bmp(int width, int height, F grey) {
  const int row = (width * 3 + 3) / 4 * 4;
  std::string out(54 + static_cast<size_t>(row) * height, '\0');
  auto put32 = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  };
  out[0] = 'B';
  out[1] = 'M';
  put32(2, static_cast<uint32_t>(out.size()));
  put32(10, 54);
  put32(14, 40);
  put32(18, static_cast<uint32_t>(width));
  put32(22, static_cast<uint32_t>(height));
  out[26] = 1;
  out[28] = 24;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      size_t at = 54 + static_cast<size_t>(height - 1 - y) * row + static_cast<size_t>(x) * 3;
      out[at] = out[at + 1] = out[at + 2] = static_cast<char>(grey(x, y));
    }
  }
  return out;
}

std::unique_ptr<DocBatch> image_batch(const std::vector<std::string>& images) {
  auto batch = std::make_unique<DocBatch>();
  for (size_t i = 0; i < images.size(); ++i) {
    batch->add_item(DocKey::make(0, i), ItemKind::kImage, "img" + std::to_string(i),
                    Payload::of_bytes(images[i], "image/bmp"), 0);
  }
  return batch;
}

TEST(ImageBlurFilter, LaplacianVarianceOfStripesAndFlat) {
  ReasonTable reasons;
  StageContext context(reasons, "blur", 0, 0);
  context.set_skip_errors(true);  // on_error: skip: the undecodable one becomes an error record
  auto stage = build_stage(image_blur_filter_spec(), {{"min_variance", 1.0}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = image_batch({bmp(64, 48, [](int x, int) { return x % 2 ? 255 : 0; }),
                            bmp(64, 48, [](int, int) { return 128; }), "BMnot a bitmap"});
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("blur");
  ASSERT_NE(column, nullptr);
  EXPECT_DOUBLE_EQ(column->float_at(0), 4161600.0);
  EXPECT_EQ(reason_of(*batch, reasons, 0), "kept");
  EXPECT_DOUBLE_EQ(column->float_at(1), 0.0);
  EXPECT_EQ(reason_of(*batch, reasons, 1), "blur/blurry");
  EXPECT_DOUBLE_EQ(batch->drop_score(1), 0.0);
  EXPECT_EQ(reason_of(*batch, reasons, 2), "blur/undecodable_image");
  EXPECT_EQ(reasons.at(batch->drop_reason(2)).outcome, RowOutcome::kError);
  // on_error: fail: the run stops, naming the image.
  StageContext failing(reasons, "blur2", 1, 0);
  auto strict = build_stage(image_blur_filter_spec(), {{"min_variance", 1.0}}, failing);
  ASSERT_TRUE(strict.is_ok());
  auto again = image_batch({"BMnot a bitmap"});
  Status status = (*strict)->process(*again);
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("image 'img0' cannot be decoded"), std::string::npos);
}

TEST(ImageSizeFilter, LimitsFromTheHeader) {
  ReasonTable reasons;
  StageContext context(reasons, "size", 0, 0);
  auto stage = build_stage(image_size_filter_spec(),
                           {{"min_width", int64_t{32}},
                            {"min_height", int64_t{32}},
                            {"max_width", int64_t{200}},
                            {"max_aspect_ratio", 2.0},
                            {"max_bytes", int64_t{20000}},
                            {"annotate", true}},
                           context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto flat = [](int, int) { return 7; };
  auto batch = image_batch({bmp(64, 40, flat), bmp(16, 64, flat), bmp(300, 200, flat),
                            bmp(100, 40, flat), bmp(120, 100, flat)});
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  EXPECT_EQ(reason_of(*batch, reasons, 0), "kept");
  EXPECT_EQ(reason_of(*batch, reasons, 1), "size/too_small");
  EXPECT_EQ(batch->drop_score(1), 16.0);
  EXPECT_EQ(reason_of(*batch, reasons, 2), "size/too_large");
  EXPECT_EQ(reason_of(*batch, reasons, 3), "size/aspect_ratio");
  EXPECT_DOUBLE_EQ(batch->drop_score(3), 2.5);
  EXPECT_EQ(reason_of(*batch, reasons, 4), "size/file_too_large");  // 54 + 360 x 100 bytes
  EXPECT_EQ(batch->find_annotation("size_width")->int_at(0), 64);
  EXPECT_EQ(batch->find_annotation("size_height")->int_at(0), 40);
  // Bad limits name the key.
  ReasonTable other;
  StageContext c2(other, "size", 0, 0);
  auto bad = build_stage(image_size_filter_spec(), {{"max_aspect_ratio", 0.5}}, c2);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_THAT(bad.status().message(), ::testing::HasSubstr("max_aspect_ratio"));
}

TEST(DecodedImages, OneDecodePerImageSharedByStages) {
  auto batch = image_batch({bmp(1200, 600, [](int x, int y) { return (x / 7 + y / 5) % 256; })});
  const ImagePixels* first = decoded_image(*batch, 0);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->source_width, 1200u);
  // Reduced by the smallest whole factor that brings 1200 to 512 or less: 3.
  EXPECT_EQ(first->width, 400);
  EXPECT_EQ(first->height, 200);
  EXPECT_EQ(decoded_image(*batch, 0), first);  // the same decode, not a second one
  ImagePixels scratch;
  const DocBatch& view = *batch;
  EXPECT_EQ(decoded_image(view, 0, scratch), first);
  // New bytes for the row: decoded again.
  batch->set_payload(0, Payload::of_bytes(bmp(10, 10, [](int, int) { return 1; }), "image/bmp"));
  const ImagePixels* second = decoded_image(*batch, 0);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->width, 10);
}

TEST(ImageBrisqueFilter, ScoresWithDebianModelOrNamesTheMissingFile) {
  ReasonTable reasons;
  StageContext context(reasons, "brisque", 0, 0);
  auto missing = build_stage(image_brisque_filter_spec(),
                             {{"model_file", std::string("/nonexistent.yml")}}, context);
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), ::testing::HasSubstr("/nonexistent.yml"));
  const std::string astronaut =
      "/usr/lib/python3/dist-packages/imageio/resources/images/astronaut.png";
  if (!std::filesystem::exists("/usr/share/opencv4/quality/brisque_model_live.yml") ||
      !std::filesystem::exists(astronaut)) {
    GTEST_SKIP() << "opencv-data or python3-imageio not installed";
  }
  ReasonTable r2;
  StageContext c2(r2, "brisque", 0, 0);
  auto stage = build_stage(image_brisque_filter_spec(), {{"max_score", 40.0}}, c2);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  // A photograph, and the same photograph drowned in pixel noise: BRISQUE ranks the noise worse.
  auto batch =
      image_batch({read_file(astronaut),
                   bmp(256, 256, [](int x, int y) { return (x * 7919 + y * 104729) % 251; })});
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("brisque");
  ASSERT_NE(column, nullptr);
  EXPECT_LT(column->float_at(0), column->float_at(1));
  EXPECT_EQ(reason_of(*batch, r2, 0), "kept");
  EXPECT_EQ(reason_of(*batch, r2, 1), "brisque/low_quality");
}

}  // namespace
}  // namespace winnow::testing
