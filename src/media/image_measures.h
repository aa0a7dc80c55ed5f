#pragma once
// Measures on a working image (media/image_pixels.h), behind plain types.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "media/image_pixels.h"

namespace winnow {

// Variance of the Laplacian (3x3 aperture) of the grey image: low for blurry images.
double laplacian_variance(const ImagePixels& image);

// OpenCV img_hash's pHash (32x32 DCT, 8x8 low frequencies against their median), as 64 bits
// (byte i of OpenCV's hash in bits 8i..8i+7), of the image first shrunk to 32x32 by area
// averaging (OpenCV's own bilinear shrink makes thin lines flicker in and out of the hash); of
// the image mirrored left to right with `mirrored`.
uint64_t perceptual_hash(const ImagePixels& image, bool mirrored = false);

// The pHashes image_dedup indexes an image by: its own first; then, with crop > 0, those of its
// four corner crops that leave out `crop` of the width and of the height (the picture without
// a strip along two sides: a copy cropped by about that much from a corner hashes like one of
// them); then, with `mirror`, the same for the image mirrored left to right.
std::vector<uint64_t> perceptual_hashes(const ImagePixels& image, bool mirror, double crop);

// BRISQUE (no-reference quality, 0 best .. 100 worst) with OpenCV's quality module and the
// LIVE model files opencv-data installs; an error when they cannot be loaded.
class BrisqueScorer {
 public:
  static Result<BrisqueScorer> create(std::string model_file, std::string range_file);
  // Thread-safe (one model per thread, loaded at its first call).
  double score(const ImagePixels& image) const;

 private:
  BrisqueScorer(std::string model, std::string range)
      : model_(std::move(model)), range_(std::move(range)) {}
  std::string model_;
  std::string range_;
};

}  // namespace winnow
