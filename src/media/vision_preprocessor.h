#pragma once
// VisionPreprocessor: a picture → the float tensor a vision model exported from Hugging Face
// expects, following the model folder's preprocessor_config.json as transformers' (Pillow-based)
// image processors do — CLIPImageProcessor, SiglipImageProcessor, ViTImageProcessor and the
// like:
//   convert to RGB → resize (`size`: {"shortest_edge": S} keeps the aspect ratio, the longer
//   side int(S × long / short); {"height", "width"} is exact; with Pillow's `resample` filter,
//   2 = bilinear or 3 = bicubic, pixel for pixel as Pillow does, media/pillow_resample.h) →
//   centre crop to `crop_size` (zero padding where the image is smaller, as transformers does)
//   → × `rescale_factor` → (x − image_mean) / image_std per channel, in float32 → planes
//   (channels first).
// Keys left out take these values: do_resize, do_rescale and do_normalize true, do_center_crop
// false, rescale_factor 1/255; `size` (when resizing), `resample` and, when normalising,
// image_mean and image_std must be given. An integer `size` means {"shortest_edge": size} when
// the config centre-crops (CLIP's older files) and a square otherwise (ViT's), as transformers
// reads them; an integer crop_size is a square.
//
// Not matched: the "fast" (torchvision) processors, which a model uses only when asked to; and
// EXIF orientation, which winnow's decoder applies and Pillow's Image.open does not (the same
// picture turned upright, usually what a curator wants).
#include <memory>
#include <string>

#include "core/status.h"
#include "media/image_pixels.h"
#include "media/pillow_resample.h"

namespace winnow {

struct VisionPreprocessing {
  bool resize = true;
  int shortest_edge = 0;  // resize keeping the aspect ratio, or
  int resize_height = 0;  // to exactly this size
  int resize_width = 0;
  ResampleFilter filter = ResampleFilter::kBicubic;
  bool center_crop = false;
  int crop_height = 0;
  int crop_width = 0;
  bool rescale = true;
  double rescale_factor = 1.0 / 255.0;
  bool normalize = true;
  float mean[3] = {0, 0, 0};
  float std[3] = {1, 1, 1};
};

class VisionPreprocessor {
 public:
  explicit VisionPreprocessor(VisionPreprocessing settings) : settings_(settings) {}

  // Reads `path` (a preprocessor_config.json); errors name the file and the key.
  static Result<VisionPreprocessor> load(const std::string& path);

  // The tensor's height and width for a picture of the given size (fixed when the config
  // crops or resizes to a size; otherwise it follows the picture).
  void output_size(int width, int height, int& out_width, int& out_height) const;

  // Writes `image` (8-bit BGR, any size) as 3 planes of out_height × out_width floats into
  // `out`, which must hold 3 × out_width × out_height values (output_size above).
  void to_tensor(const ImagePixels& image, float* out) const;

  const VisionPreprocessing& settings() const { return settings_; }

 private:
  // The size after the resize alone (before the crop).
  void resized_size(int width, int height, int& out_width, int& out_height) const;

  VisionPreprocessing settings_;
};

}  // namespace winnow
