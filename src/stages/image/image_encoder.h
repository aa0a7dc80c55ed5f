#pragma once
// What the stages that run an image encoder share (image_embed on pictures, clip_embed and
// clip_aesthetic_filter on a clip's frames): the model folder's preprocessing and ONNX model
// loaded from the stage's parameters, pictures embedded in batches, and the heads on
// embeddings (aesthetic, NSFW) loaded from an .onnx file.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/stage.h"
#include "core/stage_params.h"
#include "media/image_pixels.h"
#include "media/vision_preprocessor.h"
#include "models/onnx_float_model.h"

namespace winnow {

class ImageEncoder {
 public:
  ImageEncoder(VisionPreprocessor preprocessor, std::unique_ptr<OnnxFloatModel> model)
      : preprocessor_(std::move(preprocessor)), model_(std::move(model)) {}

  // Embeds `images` (BGR, any size); `out` gets one row of `columns` floats per image, each
  // L2-normalised when `normalize`. `what` names the item in an error.
  Status embed(std::span<const ImagePixels* const> images, bool normalize,
               std::vector<float>& out, size_t& columns, std::string_view what) const;

 private:
  VisionPreprocessor preprocessor_;
  std::unique_ptr<OnnxFloatModel> model_;
};

// The parameters of an image encoder (model folder, output, batch size, device), with
// `prefix` before each help text.
std::vector<ParamSpec> image_encoder_params(const std::string& prefix = "");

// Loads the encoder the parameters above name: `model` (folder: vision_model.onnx or
// model.onnx, and preprocessor_config.json); errors name the key.
Result<std::unique_ptr<ImageEncoder>> load_image_encoder(const StageParams& p);

// A head on embeddings: an .onnx file (or a folder holding model.onnx) with one input
// [batch, D], D fixed; `key` names the parameter that gave `model` in errors.
Result<std::unique_ptr<OnnxFloatModel>> load_embedding_head(const StageParams& p,
                                                            const std::string& key,
                                                            size_t batch_size);

void l2_normalize(std::span<float> v);

}  // namespace winnow
