// Image model stages: `image_embed` runs a Hugging Face image encoder exported to ONNX (CLIP's
// or SigLIP's image tower, a ViT) on each picture, preprocessed as the model folder's
// preprocessor_config.json says (media/vision_preprocessor.h), and stores the embedding as a
// float vector, the input of semantic_dedup and of the heads; `image_aesthetic_filter` and
// `image_nsfw_filter` run a small head on that embedding (LAION's aesthetic predictor, NeMo's
// NSFW MLP, exported to ONNX) and keep or drop on its score, with NeMo's thresholds.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "media/decoded_images.h"
#include "media/vision_preprocessor.h"
#include "models/onnx_float_model.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

void l2_normalize(std::span<float> v) {
  double sum = 0;
  for (float x : v) sum += static_cast<double>(x) * x;
  if (sum <= 0) return;
  const auto scale = static_cast<float>(1.0 / std::sqrt(sum));
  for (float& x : v) x *= scale;
}

std::optional<Status> read_device(const StageParams& p, OnnxSessionOptions& session) {
  const std::string& device = p.get_string("device");
  if (device != "cpu" && device != "cuda") return p.error("device", "must be cpu or cuda");
  session.gpu = device == "cuda";
  // One intra-op thread: the CPU the stage declares per worker; more workers share the session.
  session.intra_op_threads = 1;
  return std::nullopt;
}

class ImageEmbedStage final : public Stage {
 public:
  ImageEmbedStage(VisionPreprocessor preprocessor, std::unique_ptr<OnnxFloatModel> model,
                  bool full_decode, bool normalize, std::string field, StageContext& context)
      : preprocessor_(std::move(preprocessor)),
        model_(std::move(model)),
        full_decode_(full_decode),
        normalize_(normalize),
        field_(std::move(field)),
        undecodable_(context.declare_reason("undecodable")) {}

  Status process(DocBatch& batch) override {
    std::vector<size_t> rows;
    std::vector<float> pixels;
    ImagePixels full;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      const ImagePixels* image = nullptr;
      if (full_decode_) {
        const Payload* payload = batch.payload(i);
        if (payload && payload->in_memory() && decode_full_image(payload->bytes(), full, nullptr)) {
          image = &full;
        }
      } else {
        image = decoded_image(batch, i);
      }
      if (image == nullptr) {
        batch.drop(i, undecodable_);
        continue;
      }
      int width = 0, height = 0;
      preprocessor_.output_size(image->width, image->height, width, height);
      const size_t size = static_cast<size_t>(3) * width * height;
      if (size != model_->item_size()) {
        return Status::errorf(
            "image_embed: '{}' preprocesses to 3 x {} x {}, but the model takes {} values per "
            "image; preprocessor_config.json must resize or crop to the model's size",
            batch.id(i), height, width, model_->item_size());
      }
      pixels.resize(pixels.size() + size);
      preprocessor_.to_tensor(*image, pixels.data() + pixels.size() - size);
      rows.push_back(i);
    }
    AnnotationColumn& column = batch.annotation(field_, AnnotationType::kFloatVector);
    if (rows.empty()) return Status::ok();
    std::vector<float> vectors;
    size_t columns = 0;
    WINNOW_RETURN_IF_ERROR(model_->run(pixels, rows.size(), vectors, columns));
    for (size_t k = 0; k < rows.size(); ++k) {
      std::span<float> v(vectors.data() + k * columns, columns);
      if (normalize_) l2_normalize(v);
      column.set_vector(rows[k], v);
    }
    return Status::ok();
  }

 private:
  VisionPreprocessor preprocessor_;
  std::unique_ptr<OnnxFloatModel> model_;
  bool full_decode_;
  bool normalize_;
  std::string field_;
  ReasonId undecodable_;
};

// A head on an embedding: one score per item, kept at or above `limit` (keep_above) or below it.
class EmbeddingHeadFilter final : public Stage {
 public:
  EmbeddingHeadFilter(std::unique_ptr<OnnxFloatModel> model, std::string embedding_field,
                      bool normalize_input, double limit, bool keep_above, bool annotate,
                      const std::string& reason, StageContext& context)
      : model_(std::move(model)),
        embedding_field_(std::move(embedding_field)),
        normalize_input_(normalize_input),
        limit_(limit),
        keep_above_(keep_above),
        annotate_(annotate),
        stage_name_(context.stage_name()),
        reason_(context.declare_reason(reason)) {}

  Status process(DocBatch& batch) override {
    const AnnotationColumn* embeddings = batch.find_annotation(embedding_field_);
    std::vector<size_t> rows;
    std::vector<float> inputs;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      if (!embeddings || embeddings->type() != AnnotationType::kFloatVector ||
          !embeddings->has(i)) {
        return Status::errorf(
            "{}: '{}' has no '{}' vector; put image_embed (or embed) before this stage",
            stage_name_, batch.id(i), embedding_field_);
      }
      std::span<const float> v = embeddings->vector_at(i);
      if (v.size() != model_->item_size()) {
        return Status::errorf("{}: '{}' has a {}-value '{}', the head takes {}", stage_name_,
                              batch.id(i), v.size(), embedding_field_, model_->item_size());
      }
      inputs.insert(inputs.end(), v.begin(), v.end());
      if (normalize_input_) l2_normalize(std::span<float>(inputs).last(v.size()));
      rows.push_back(i);
    }
    if (rows.empty()) return Status::ok();
    std::vector<float> scores;
    size_t columns = 0;
    WINNOW_RETURN_IF_ERROR(model_->run(inputs, rows.size(), scores, columns));
    if (columns != 1) {
      return Status::errorf("{}: the head gives {} values per item, not one score", stage_name_,
                            columns);
    }
    AnnotationColumn* column =
        annotate_ ? &batch.annotation(stage_name_, AnnotationType::kFloat) : nullptr;
    for (size_t k = 0; k < rows.size(); ++k) {
      const double score = scores[k];
      if (column) column->set_float(rows[k], score);
      if (keep_above_ ? !(score >= limit_) : !(score < limit_)) {
        batch.drop(rows[k], reason_, score);
      }
    }
    return Status::ok();
  }

 private:
  std::unique_ptr<OnnxFloatModel> model_;
  std::string embedding_field_;
  bool normalize_input_;
  double limit_;
  bool keep_above_;
  bool annotate_;
  std::string stage_name_;
  ReasonId reason_;
};

// The image tower in `folder`: vision_model.onnx, else model.onnx.
std::string vision_model_file(const std::string& folder) {
  for (const char* name : {"vision_model.onnx", "model.onnx"}) {
    std::string path = folder + "/" + name;
    if (std::filesystem::exists(path)) return path;
  }
  return folder + "/model.onnx";  // missing: the loader names it
}

// A head given as an .onnx file, or a folder holding model.onnx.
std::string head_model_file(const std::string& model) {
  return std::filesystem::is_directory(model) ? model + "/model.onnx" : model;
}

std::vector<ParamSpec> head_params(const std::string& limit_key, const std::string& limit,
                                   const std::string& limit_help) {
  return {
      {"model", ParamType::kString, "",
       "the head: an ONNX file (or a folder with model.onnx) taking [batch, D] embeddings and "
       "giving [batch, 1] or [batch] scores"},
      {"embedding_field", ParamType::kString, "embedding",
       "the float-vector field the head reads (image_embed's `field`)"},
      {"normalize_input", ParamType::kBool, "true",
       "L2-normalise the embedding before the head (LAION's and NeMo's heads expect it)"},
      {limit_key, ParamType::kFloat, limit, limit_help},
      {"annotate", ParamType::kBool, "true", "record the score in a field named after the stage"},
      {"batch_size", ParamType::kInt, "256", "embeddings per model call at most"},
      {"device", ParamType::kString, "cpu",
       "cpu, or cuda (needs an ONNX Runtime build with CUDA: ONNXRUNTIME_ROOT)"},
  };
}

StageFactory head_factory(std::string limit_key, bool keep_above, std::string reason) {
  return [=](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
    if (p.get_string("model").empty()) return p.error("model", "is required");
    OnnxFloatModelOptions options;
    if (auto error = read_device(p, options.session)) return *error;
    if (p.get_int("batch_size") < 1) return p.error("batch_size", "must be at least 1");
    options.batch_size = static_cast<size_t>(p.get_int("batch_size"));
    // The embedding's width comes from the model's own input declaration.
    auto probe = OnnxSession::load(head_model_file(p.get_string("model")), options.session);
    if (!probe.is_ok()) return p.error("model", probe.status().message());
    const auto& inputs = probe.value()->inputs();
    if (inputs.size() != 1 || inputs[0].shape.size() != 2 || inputs[0].shape[1] <= 0) {
      return p.error("model", fmt::format("'{}' must have one input of shape [batch, D] with D "
                                          "fixed",
                                          probe.value()->path()));
    }
    auto model = OnnxFloatModel::load(probe.value()->path(), {inputs[0].shape[1]}, options);
    if (!model.is_ok()) return p.error("model", model.status().message());
    return std::unique_ptr<Stage>(new EmbeddingHeadFilter(
        std::move(model).value(), p.get_string("embedding_field"), p.get_bool("normalize_input"),
        p.get_float(limit_key), keep_above, p.get_bool("annotate"), reason, context));
  };
}

}  // namespace

StageSpec image_embed_spec() {
  StageSpec spec{
      "image_embed",
      "Annotates each image with the embedding of a Hugging Face image encoder exported to ONNX "
      "(CLIP's or SigLIP's image tower, a ViT: one float input [batch, 3, H, W]), the picture "
      "preprocessed as the folder's preprocessor_config.json says, with Pillow's resize "
      "reproduced exactly. The vector feeds semantic_dedup and the aesthetic and NSFW heads. "
      "Undecodable images are dropped (undecodable).",
      {
          {"model", ParamType::kString, "",
           "the model folder: vision_model.onnx or model.onnx, and preprocessor_config.json"},
          {"field", ParamType::kString, "embedding", "field the vector is written to"},
          {"output", ParamType::kString, "",
           "the output to read (empty: image_embeds, else pooler_output, else the only "
           "[batch, D] output)"},
          {"normalize", ParamType::kBool, "true", "L2-normalise each vector"},
          {"decode", ParamType::kString, "full",
           "full (decode at full size and resize from there, as transformers does: the model's "
           "own input) or working (resize from the shared working image, at most 512 px: one "
           "decode less, slightly different pixels)"},
          {"batch_size", ParamType::kInt, "32", "images per model call at most"},
          {"device", ParamType::kString, "cpu",
           "cpu, or cuda (needs an ONNX Runtime build with CUDA: ONNXRUNTIME_ROOT)"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        const std::string& folder = p.get_string("model");
        if (folder.empty()) return p.error("model", "is required (a model folder)");
        auto preprocessor = VisionPreprocessor::load(folder + "/preprocessor_config.json");
        if (!preprocessor.is_ok()) return p.error("model", preprocessor.status().message());
        const std::string& decode = p.get_string("decode");
        if (decode != "full" && decode != "working") {
          return p.error("decode", "must be full or working");
        }
        OnnxFloatModelOptions options;
        if (auto error = read_device(p, options.session)) return *error;
        if (p.get_int("batch_size") < 1) return p.error("batch_size", "must be at least 1");
        options.batch_size = static_cast<size_t>(p.get_int("batch_size"));
        options.output = p.get_string("output");
        options.preferred_outputs = {"image_embeds", "pooler_output"};
        // The input's size: fixed by the crop or the resize (a shortest-edge resize without a
        // crop leaves it to the picture, which a batch cannot mix).
        const VisionPreprocessing& s = preprocessor.value().settings();
        int width = s.center_crop ? s.crop_width : s.resize_width;
        int height = s.center_crop ? s.crop_height : s.resize_height;
        if (width == 0 || height == 0) {
          return p.error("model",
                         "preprocessor_config.json resizes by the shortest edge without a crop, "
                         "so pictures would differ in size; winnow needs do_center_crop or a "
                         "{height, width} size");
        }
        auto model = OnnxFloatModel::load(vision_model_file(folder), {3, height, width}, options);
        if (!model.is_ok()) return p.error("model", model.status().message());
        return std::unique_ptr<Stage>(new ImageEmbedStage(
            std::move(preprocessor).value(), std::move(model).value(), decode == "full",
            p.get_bool("normalize"), p.get_string("field"), context));
      },
  };
  spec.takes = ItemKind::kImage;
  return spec;
}

StageSpec image_aesthetic_filter_spec() {
  StageSpec spec{
      "image_aesthetic_filter",
      "Scores each image's embedding with an aesthetic head (LAION's aesthetic predictor on "
      "CLIP ViT-L/14 embeddings, as NeMo uses it, exported to ONNX) and keeps scores at or "
      "above min_score (reason low_aesthetic, score: the head's).",
      head_params("min_score", "0.5",
                  "lowest score kept (NeMo's tutorial 0.5; its video benchmarks 3.5 on LAION's "
                  "1-10 scale)"),
      head_factory("min_score", true, "low_aesthetic"),
  };
  spec.takes = ItemKind::kImage;
  return spec;
}

StageSpec image_nsfw_filter_spec() {
  StageSpec spec{
      "image_nsfw_filter",
      "Scores each image's embedding with an NSFW head (NeMo's MLP on CLIP ViT-L/14 embeddings, "
      "exported to ONNX) and drops scores at or above max_score (reason nsfw, score: the "
      "head's).",
      head_params("max_score", "0.5", "scores at or above it are dropped (NeMo: 0.5)"),
      head_factory("max_score", false, "nsfw"),
  };
  spec.takes = ItemKind::kImage;
  return spec;
}

}  // namespace winnow
