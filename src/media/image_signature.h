#pragma once
// Perceptual hashes and the signature image_dedup compares two pictures by, on a working image
// (media/image_pixels.h), behind plain types.
#include <array>
#include <cstdint>
#include <vector>

#include "media/image_pixels.h"

namespace winnow {

// OpenCV img_hash's pHash (32x32 DCT, the 8x8 low frequencies against their mean), as 64 bits
// (byte i of OpenCV's hash in bits 8i..8i+7), of the image first shrunk to 32x32 by area
// averaging (OpenCV's own bilinear shrink makes thin lines flicker in and out of the hash); of
// the image mirrored left to right with `mirrored`.
uint64_t perceptual_hash(const ImagePixels& image, bool mirrored = false);

// The pHashes image_dedup indexes an image by: its own first; then, with crop > 0, those of
// five crops that leave out `crop` of the width and of the height: the four corner ones (the
// picture without a strip along two sides) and the centred one (half the strip on every side),
// so that a copy cropped by about that much hashes like one of them; then, with `mirror`, the
// same for the image mirrored left to right.
std::vector<uint64_t> perceptual_hashes(const ImagePixels& image, bool mirror, double crop);

// What a pHash match alone cannot tell apart, measured on the same 32x32 shrink:
//  - informative_bits: the bits of the own pHash whose DCT coefficient lies more than
//    kBitMargin grey levels from the mean it is compared with. A flat picture (one colour, a
//    faint gradient) has low frequencies of about zero: its 64 bits are rounding noise, the same
//    for white and black, and they flip under any re-encoding. A hash with few such bits says
//    too little to match on.
//  - colour: mean and standard deviation of CIELAB L, a and b (OpenCV's 8-bit scale, 0..255)
//    over the 32x32 shrink. pHash sees only grey levels, centred: a light and a dark palette of
//    one drawing, or white and black, hash alike; these moments tell them apart, and a resized,
//    re-encoded, slightly cropped or mirrored copy keeps them (the shrink averages away what
//    resizing and JPEG change).
struct ImageSignature {
  std::vector<uint64_t> hashes;  // perceptual_hashes(image, mirror, crop)
  int informative_bits = 0;
  std::array<float, 6> colour{};  // mean L, a, b, then standard deviation L, a, b
};

// Grey levels (of the orthonormal DCT of 0..255 pixels) a coefficient must lie from the mean for
// its bit to count as informative: well above what resizing to 60 % or JPEG at quality 55 moves
// a 32x32 block mean (under 1).
inline constexpr float kBitMargin = 2.0f;

ImageSignature image_signature(const ImagePixels& image, bool mirror, double crop);

// The largest difference between two signatures' colour moments (either mean or deviation, in
// any channel).
float colour_distance(const std::array<float, 6>& a, const std::array<float, 6>& b);

}  // namespace winnow
