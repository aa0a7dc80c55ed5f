// resize_like_pillow against Pillow itself (tests/models/vision_test_model.py resize): the same
// bytes, on random pixels of awkward sizes (shrinking, enlarging, one axis only, to and from one
// pixel) and on real pictures decoded from this machine, with both filters.
#include "media/pillow_resample.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <random>

#include "media/image_pixels.h"
#include "models/vision_test_models.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

std::vector<uint8_t> pillow_resize(const TempDir& dir, const std::vector<uint8_t>& pixels, int w,
                                   int h, int c, int out_w, int out_h, const char* filter) {
  const std::string in = dir.file("in.raw"), out = dir.file("out.raw");
  write_file(in, std::string_view(reinterpret_cast<const char*>(pixels.data()), pixels.size()));
  vision_script(fmt::format("resize {} {} {} {} {} {} {} {}", in, w, h, c, out_w, out_h, filter,
                            out));
  const std::string bytes = read_file(out);
  return {bytes.begin(), bytes.end()};
}

struct Case {
  int w, h, c, out_w, out_h;
};

TEST(PillowResample, SameBytesAsPillowOnRandomPixels) {
  TempDir dir;
  std::mt19937 rng(7);
  const Case cases[] = {
      {1, 1, 3, 5, 3},      {7, 13, 3, 3, 2},    {100, 37, 3, 224, 224}, {640, 480, 3, 224, 168},
      {3, 500, 3, 1, 1},    {257, 31, 1, 256, 31}, {31, 257, 3, 31, 255}, {224, 224, 3, 224, 224},
      {1001, 3, 3, 17, 9},  {50, 50, 1, 49, 51},
  };
  for (const char* filter : {"bicubic", "bilinear"}) {
    for (const Case& k : cases) {
      std::vector<uint8_t> pixels(static_cast<size_t>(k.w) * k.h * k.c);
      for (auto& p : pixels) p = static_cast<uint8_t>(rng() & 0xff);
      std::vector<uint8_t> ours;
      resize_like_pillow(pixels.data(), k.w, k.h, k.c, k.out_w, k.out_h,
                         filter[2] == 'c' ? ResampleFilter::kBicubic : ResampleFilter::kBilinear,
                         ours);
      auto theirs = pillow_resize(dir, pixels, k.w, k.h, k.c, k.out_w, k.out_h, filter);
      ASSERT_EQ(ours.size(), theirs.size());
      size_t differing = 0;
      for (size_t i = 0; i < ours.size(); ++i) differing += ours[i] != theirs[i];
      EXPECT_EQ(differing, 0u) << filter << " " << k.w << "x" << k.h << "x" << k.c << " -> "
                               << k.out_w << "x" << k.out_h;
    }
  }
}

TEST(PillowResample, SameBytesAsPillowOnRealPictures) {
  TempDir dir;
  const auto pictures = machine_pictures(6);
  ASSERT_GE(pictures.size(), 4u);
  for (const std::string& path : pictures) {
    ImagePixels image;
    ASSERT_TRUE(decode_full_image(read_file(path), image, nullptr)) << path;
    std::vector<uint8_t> rgb(image.bgr.size());
    for (size_t i = 0; i < rgb.size(); i += 3) {
      rgb[i] = image.bgr[i + 2];
      rgb[i + 1] = image.bgr[i + 1];
      rgb[i + 2] = image.bgr[i];
    }
    const int out_w = std::max(1, image.width * 224 / std::max(image.width, image.height));
    const int out_h = std::max(1, image.height * 224 / std::max(image.width, image.height));
    std::vector<uint8_t> ours;
    resize_like_pillow(rgb.data(), image.width, image.height, 3, out_w, out_h,
                       ResampleFilter::kBicubic, ours);
    EXPECT_EQ(ours, pillow_resize(dir, rgb, image.width, image.height, 3, out_w, out_h, "bicubic"))
        << path;
  }
}

}  // namespace
}  // namespace winnow::testing
