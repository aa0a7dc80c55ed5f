#include "media/image_thumbnail.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "test_support.h"

namespace winnow {
namespace {

using testing::TempDir;

ImagePixels solid(int width, int height, uint8_t r, uint8_t g, uint8_t b) {
  ImagePixels pixels;
  pixels.width = width;
  pixels.height = height;
  pixels.bgr.resize(static_cast<size_t>(width) * height * 3);
  for (size_t i = 0; i < pixels.bgr.size(); i += 3) {
    pixels.bgr[i] = b;
    pixels.bgr[i + 1] = g;
    pixels.bgr[i + 2] = r;
  }
  return pixels;
}

struct Decoded {
  int width = 0, height = 0;
  double r = 0, g = 0, b = 0;  // mean colour
};

// Decodes `jpeg` with FFmpeg (an independent decoder: not OpenCV, not winnow's code): its size
// from ffprobe and its mean colour from ffmpeg's raw RGB output.
Decoded decode_with_ffmpeg(const std::string& jpeg) {
  TempDir dir;
  testing::write_file(dir.file("t.jpg"), jpeg);
  Decoded d;
  std::string size;
  EXPECT_EQ(testing::run_command("ffprobe -v error -select_streams v:0 -show_entries "
                                 "stream=width,height -of csv=p=0:s=x " + dir.file("t.jpg"),
                                 &size), 0);
  EXPECT_EQ(std::sscanf(size.c_str(), "%dx%d", &d.width, &d.height), 2) << size;
  EXPECT_EQ(testing::run_command("ffmpeg -v error -i " + dir.file("t.jpg") +
                                 " -f rawvideo -pix_fmt rgb24 -y " + dir.file("t.rgb")), 0);
  std::string rgb = testing::read_file(dir.file("t.rgb"));
  size_t n = rgb.size() / 3;
  for (size_t i = 0; i < n; ++i) {
    d.r += static_cast<uint8_t>(rgb[3 * i]);
    d.g += static_cast<uint8_t>(rgb[3 * i + 1]);
    d.b += static_cast<uint8_t>(rgb[3 * i + 2]);
  }
  if (n > 0) d.r /= n, d.g /= n, d.b /= n;
  return d;
}

TEST(ImageThumbnail, IsAJpegOfTheItemsColourWithTheLongerSideReduced) {
  if (std::system("command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null") != 0) {
    GTEST_SKIP() << "ffmpeg/ffprobe not installed: no independent JPEG decoder";
  }
  struct Case { int w, h; uint8_t r, g, b; int want_w, want_h; };
  for (const Case& c : {Case{300, 200, 200, 30, 40, 128, 85}, Case{90, 400, 20, 180, 60, 29, 128},
                        Case{64, 48, 30, 60, 220, 64, 48}}) {
    std::string jpeg = thumbnail_jpeg(solid(c.w, c.h, c.r, c.g, c.b));
    ASSERT_GE(jpeg.size(), 4u);
    EXPECT_EQ(static_cast<uint8_t>(jpeg[0]), 0xFF);  // SOI marker
    EXPECT_EQ(static_cast<uint8_t>(jpeg[1]), 0xD8);
    Decoded d = decode_with_ffmpeg(jpeg);
    EXPECT_EQ(d.width, c.want_w);
    EXPECT_EQ(d.height, c.want_h);
    // A solid colour survives JPEG's chroma subsampling and quantisation within a few levels.
    EXPECT_NEAR(d.r, c.r, 6);
    EXPECT_NEAR(d.g, c.g, 6);
    EXPECT_NEAR(d.b, c.b, 6);
  }
}

TEST(ImageThumbnail, FromEncodedBytesAndNothingFromUndecodableOnes) {
  if (std::system("command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null") != 0) {
    GTEST_SKIP() << "ffmpeg/ffprobe not installed: no independent JPEG decoder";
  }
  std::string big = thumbnail_jpeg(solid(400, 100, 250, 250, 10), 1000, 95);
  std::string small = thumbnail_jpeg(std::string_view(big), 64);
  Decoded d = decode_with_ffmpeg(small);
  EXPECT_EQ(d.width, 64);
  EXPECT_EQ(d.height, 16);
  EXPECT_NEAR(d.r, 250, 6);
  EXPECT_NEAR(d.b, 10, 8);
  EXPECT_TRUE(thumbnail_jpeg(std::string_view("not an image")).empty());
  EXPECT_TRUE(thumbnail_jpeg(ImagePixels{}).empty());
}

}  // namespace
}  // namespace winnow
