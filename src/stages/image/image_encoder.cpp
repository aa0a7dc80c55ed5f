#include "stages/image/image_encoder.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "stages/models/onnx_model_params.h"

namespace winnow {

namespace {

// The image tower in `folder`: vision_model.onnx, else model.onnx.
std::string vision_model_file(const std::string& folder) {
  for (const char* name : {"vision_model.onnx", "model.onnx"}) {
    std::string path = folder + "/" + name;
    if (std::filesystem::exists(path)) return path;
  }
  return folder + "/model.onnx";  // missing: the loader names it
}

}  // namespace

void l2_normalize(std::span<float> v) {
  double sum = 0;
  for (float x : v) sum += static_cast<double>(x) * x;
  if (sum <= 0) return;
  const auto scale = static_cast<float>(1.0 / std::sqrt(sum));
  for (float& x : v) x *= scale;
}

Status ImageEncoder::embed(std::span<const ImagePixels* const> images, bool normalize,
                           std::vector<float>& out, size_t& columns,
                           std::string_view what) const {
  std::vector<float> pixels;
  for (const ImagePixels* image : images) {
    int width = 0, height = 0;
    preprocessor_.output_size(image->width, image->height, width, height);
    const size_t size = static_cast<size_t>(3) * width * height;
    if (size != model_->item_size()) {
      return Status::errorf(
          "'{}' preprocesses to 3 x {} x {}, but the model takes {} values per picture; "
          "preprocessor_config.json must resize or crop to the model's size",
          what, height, width, model_->item_size());
    }
    pixels.resize(pixels.size() + size);
    preprocessor_.to_tensor(*image, pixels.data() + pixels.size() - size);
  }
  out.clear();
  columns = 0;
  if (images.empty()) return Status::ok();
  WINNOW_RETURN_IF_ERROR(model_->run(pixels, images.size(), out, columns));
  if (normalize) {
    for (size_t k = 0; k < images.size(); ++k) {
      l2_normalize(std::span<float>(out).subspan(k * columns, columns));
    }
  }
  return Status::ok();
}

std::vector<ParamSpec> image_encoder_params(const std::string& prefix) {
  std::vector<ParamSpec> params = {
      {"model", ParamType::kString, "",
       prefix + "the image encoder's folder: vision_model.onnx or model.onnx (one float input "
                "[batch, 3, H, W]) and preprocessor_config.json"},
      {"output", ParamType::kString, "",
       prefix + "the output to read (empty: image_embeds, else pooler_output, else the only "
                "[batch, D] output)"},
      {"batch_size", ParamType::kInt, "32", prefix + "pictures per model call at most"},
  };
  for (ParamSpec& p : onnx_device_params(prefix)) params.push_back(std::move(p));
  return params;
}

Result<std::unique_ptr<ImageEncoder>> load_image_encoder(const StageParams& p) {
  const std::string& folder = p.get_string("model");
  if (folder.empty()) return p.error("model", "is required (a model folder)");
  auto preprocessor = VisionPreprocessor::load(folder + "/preprocessor_config.json");
  if (!preprocessor.is_ok()) return p.error("model", preprocessor.status().message());
  OnnxFloatModelOptions options;
  if (auto error = read_onnx_device(p, options.session)) return *error;
  if (p.get_int("batch_size") < 1) return p.error("batch_size", "must be at least 1");
  options.batch_size = static_cast<size_t>(p.get_int("batch_size"));
  options.output = p.get_string("output");
  options.preferred_outputs = {"image_embeds", "pooler_output"};
  // The input's size: fixed by the crop or the resize (a shortest-edge resize without a crop
  // leaves it to the picture, which a batch cannot mix).
  const VisionPreprocessing& s = preprocessor.value().settings();
  const int width = s.center_crop ? s.crop_width : s.resize_width;
  const int height = s.center_crop ? s.crop_height : s.resize_height;
  if (width == 0 || height == 0) {
    return p.error("model",
                   "preprocessor_config.json resizes by the shortest edge without a crop, so "
                   "pictures would differ in size; winnow needs do_center_crop or a "
                   "{height, width} size");
  }
  auto model = OnnxFloatModel::load(vision_model_file(folder), {3, height, width}, options);
  if (!model.is_ok()) return p.error("model", model.status().message());
  return std::make_unique<ImageEncoder>(std::move(preprocessor).value(),
                                        std::move(model).value());
}

Result<std::unique_ptr<OnnxFloatModel>> load_embedding_head(const StageParams& p,
                                                            const std::string& key,
                                                            size_t batch_size) {
  const std::string& given = p.get_string(key);
  if (given.empty()) return p.error(key, "is required");
  const std::string path =
      std::filesystem::is_directory(given) ? given + "/model.onnx" : given;
  OnnxFloatModelOptions options;
  if (auto error = read_onnx_device(p, options.session)) return *error;
  options.batch_size = batch_size;
  // The embedding's width comes from the model's own input declaration.
  auto probe = OnnxSession::load(path, options.session);
  if (!probe.is_ok()) return p.error(key, probe.status().message());
  const auto& inputs = probe.value()->inputs();
  if (inputs.size() != 1 || inputs[0].shape.size() != 2 || inputs[0].shape[1] <= 0) {
    return p.error(key, fmt::format("'{}' must have one input of shape [batch, D] with D fixed",
                                    path));
  }
  auto model = OnnxFloatModel::load(path, {inputs[0].shape[1]}, options);
  if (!model.is_ok()) return p.error(key, model.status().message());
  return std::move(model).value();
}

}  // namespace winnow
