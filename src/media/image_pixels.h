#pragma once
// ImagePixels: an image decoded to the working size every image stage measures at (8-bit BGR,
// rows packed), with the size of the image it came from. Plain types only: OpenCV stays inside
// media/*.cpp.
#include <cstdint>
#include <string_view>
#include <vector>

namespace winnow {

// The most the longer side of the working image has: an image is reduced by the smallest whole
// factor that brings it to this or less (so its longer side ends between 257 and 512), JPEGs
// mostly by libjpeg's DCT scaling as they are decoded (OpenCV's IMREAD_REDUCED_*: 1/2, 1/4,
// 1/8), the rest by area averaging over whole blocks of pixels; smaller images are left as
// they are.
inline constexpr int kWorkingSide = 512;

struct ImagePixels {
  int width = 0;  // of the working image
  int height = 0;
  std::vector<uint8_t> bgr;   // width * height * 3
  uint32_t source_width = 0;  // of the encoded image
  uint32_t source_height = 0;
};

// Decodes `bytes` to the working size; false (with `error` set) when no decoder can read them.
bool decode_working_image(std::string_view bytes, ImagePixels& out, std::string* error);

// Decodes `bytes` at their full size (what a model's preprocessing resizes from, as
// transformers does from Pillow's full decode); false (with `error` set) when undecodable.
bool decode_full_image(std::string_view bytes, ImagePixels& out, std::string* error);

// XXH3-128 of the fully decoded pixels (8-bit BGR at the source size, with the size), for
// exact-pixel dedup: the same picture stored as PNG and as lossless WebP gives the same hash.
// False when undecodable.
bool hash_full_pixels(std::string_view bytes, uint64_t& hi, uint64_t& lo);

}  // namespace winnow
