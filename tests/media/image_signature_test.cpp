#include "media/image_signature.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>

namespace winnow {
namespace {

ImagePixels flat(int width, int height, uint8_t b, uint8_t g, uint8_t r) {
  ImagePixels image;
  image.width = width;
  image.height = height;
  for (int i = 0; i < width * height; ++i) image.bgr.insert(image.bgr.end(), {b, g, r});
  return image;
}

// 8x8-pixel blocks of random colours: low frequencies well clear of the mean.
ImagePixels blocks(int side, unsigned seed) {
  std::mt19937 rng(seed);
  ImagePixels image = flat(side, side, 0, 0, 0);
  std::vector<uint8_t> colours(static_cast<size_t>(side / 8 * side / 8 * 3));
  for (uint8_t& c : colours) c = static_cast<uint8_t>(rng());
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      for (int c = 0; c < 3; ++c) {
        image.bgr[(y * side + x) * 3 + c] = colours[((y / 8) * (side / 8) + x / 8) * 3 + c];
      }
    }
  }
  return image;
}

ImagePixels mirrored(const ImagePixels& image) {
  ImagePixels out = image;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      for (int c = 0; c < 3; ++c) {
        out.bgr[(y * image.width + x) * 3 + c] =
            image.bgr[(y * image.width + image.width - 1 - x) * 3 + c];
      }
    }
  }
  return out;
}

ImagePixels cropped(const ImagePixels& image, int left, int top, int width, int height) {
  ImagePixels out;
  out.width = width;
  out.height = height;
  for (int y = top; y < top + height; ++y) {
    const uint8_t* row = image.bgr.data() + (y * image.width + left) * 3;
    out.bgr.insert(out.bgr.end(), row, row + width * 3);
  }
  return out;
}

// White and black hash alike (every low frequency is 0): only the information count and the
// colour moments tell them apart.
TEST(ImageSignature, FlatPicturesCarryNoInformationAndDifferInColour) {
  ImageSignature white = image_signature(flat(320, 240, 255, 255, 255), true, 0.03);
  ImageSignature black = image_signature(flat(320, 240, 0, 0, 0), true, 0.03);
  EXPECT_EQ(white.hashes.front(), black.hashes.front());
  EXPECT_EQ(white.informative_bits, 0);
  EXPECT_EQ(black.informative_bits, 0);
  EXPECT_NEAR(white.colour[0], 255, 0.5);  // L
  EXPECT_NEAR(black.colour[0], 0, 0.5);
  EXPECT_GT(colour_distance(white.colour, black.colour), 250);
  for (int c = 3; c < 6; ++c) EXPECT_NEAR(white.colour[c], 0, 1e-3);  // no deviation
}

// Own, four corner crops, the centred crop, then the same mirrored: a copy cropped like one of
// them, or mirrored, hashes exactly like it; the colour moments survive both.
TEST(ImageSignature, CropsAndMirrorAreIndexed) {
  const ImagePixels image = blocks(256, 3);
  const ImageSignature signature = image_signature(image, true, 0.03);
  ASSERT_EQ(signature.hashes.size(), 12u);
  EXPECT_EQ(signature.hashes[0], perceptual_hash(image));
  EXPECT_EQ(signature.hashes[6], perceptual_hash(image, true));
  EXPECT_GE(signature.informative_bits, 40);
  const int strip = static_cast<int>(256 * 0.03);
  const ImageSignature top_left = image_signature(
      cropped(image, strip, strip, 256 - strip, 256 - strip), false, 0);
  EXPECT_EQ(top_left.hashes.size(), 1u);
  EXPECT_EQ(top_left.hashes[0], signature.hashes[1]);
  const ImageSignature centre = image_signature(
      cropped(image, strip / 2, strip / 2, 256 - strip, 256 - strip), false, 0);
  EXPECT_EQ(centre.hashes[0], signature.hashes[5]);
  // Blocks that fall exactly on the 32x32 grid blend once shifted: the deviation drops most
  // (by 14 here), still within image_dedup's default tolerance (20).
  EXPECT_LT(colour_distance(centre.colour, signature.colour), 20);
  const ImageSignature flipped = image_signature(mirrored(image), false, 0);
  EXPECT_EQ(flipped.hashes[0], signature.hashes[6]);
  EXPECT_LT(colour_distance(flipped.colour, signature.colour), 1e-3);
  // Another picture of the same kind is far in both.
  const ImageSignature other = image_signature(blocks(256, 4), false, 0);
  EXPECT_GT(std::popcount(other.hashes[0] ^ signature.hashes[0]), 16);
  EXPECT_EQ(image_signature(image, false, 0).hashes.size(), 1u);
}

}  // namespace
}  // namespace winnow
