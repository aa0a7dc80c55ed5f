#pragma once
// Measures on a working image (media/image_pixels.h), behind plain types.
#include <cstdint>
#include <optional>
#include <string>

#include "core/status.h"
#include "media/image_pixels.h"

namespace winnow {

// Variance of the Laplacian (3x3 aperture) of the grey image: low for blurry images.
double laplacian_variance(const ImagePixels& image);

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
