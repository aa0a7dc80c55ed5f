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
#include "stages/builtin_stages.h"
#include "stages/image/image_encoder.h"
#include "stages/image/undecodable_images.h"
#include "stages/models/onnx_model_params.h"

namespace winnow {

namespace {

class ImageEmbedStage final : public Stage {
 public:
  ImageEmbedStage(std::unique_ptr<ImageEncoder> encoder, bool full_decode, bool normalize,
                  std::string field, StageContext& context)
      : encoder_(std::move(encoder)),
        full_decode_(full_decode),
        normalize_(normalize),
        field_(std::move(field)),
        undecodable_(context) {}

  Status process(DocBatch& batch) override {
    std::vector<size_t> rows;
    std::vector<ImagePixels> full;  // full-size decodes (decode: full)
    std::vector<const ImagePixels*> images;
    if (full_decode_) full.reserve(batch.size());
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      const ImagePixels* image = nullptr;
      std::string why;
      if (full_decode_) {
        const Payload* payload = batch.payload(i);
        full.emplace_back();
        if (payload && payload->in_memory() &&
            decode_full_image(payload->bytes(), full.back(), &why)) {
          image = &full.back();
        }
      } else {
        image = decoded_image(batch, i, &why);
      }
      if (image == nullptr) {
        WINNOW_RETURN_IF_ERROR(undecodable_.report(batch, i, why));
        continue;
      }
      images.push_back(image);
      rows.push_back(i);
    }
    AnnotationColumn& column = batch.annotation(field_, AnnotationType::kFloatVector);
    std::vector<float> vectors;
    size_t columns = 0;
    Status status = encoder_->embed(images, normalize_, vectors, columns,
                                    rows.empty() ? std::string_view() : batch.id(rows[0]));
    if (!status.is_ok()) return Status::errorf("image_embed: {}", status.message());
    for (size_t k = 0; k < rows.size(); ++k) {
      column.set_vector(rows[k], std::span<const float>(vectors).subspan(k * columns, columns));
    }
    return Status::ok();
  }

 private:
  std::unique_ptr<ImageEncoder> encoder_;
  bool full_decode_;
  bool normalize_;
  std::string field_;
  UndecodableImages undecodable_;
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

std::vector<ParamSpec> head_params(const std::string& limit_key, const std::string& limit,
                                   const std::string& limit_help) {
  std::vector<ParamSpec> params = {
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
  };
  for (ParamSpec& p : onnx_device_params("")) params.push_back(std::move(p));
  return params;
}

StageFactory head_factory(std::string limit_key, bool keep_above, std::string reason) {
  return [=](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
    if (p.get_int("batch_size") < 1) return p.error("batch_size", "must be at least 1");
    auto model = load_embedding_head(p, "model", static_cast<size_t>(p.get_int("batch_size")));
    if (!model.is_ok()) return model.status();
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
      "An undecodable image is an error record (undecodable_image).",
      image_encoder_params(),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        const std::string& decode = p.get_string("decode");
        if (decode != "full" && decode != "working") {
          return p.error("decode", "must be full or working");
        }
        auto encoder = load_image_encoder(p);
        if (!encoder.is_ok()) return encoder.status();
        return std::unique_ptr<Stage>(new ImageEmbedStage(std::move(encoder).value(),
                                                          decode == "full", p.get_bool("normalize"),
                                                          p.get_string("field"), context));
      },
  };
  spec.params.insert(spec.params.begin() + 1,
                     {{"field", ParamType::kString, "embedding", "field the vector is written to"},
                      {"normalize", ParamType::kBool, "true", "L2-normalise each vector"},
                      {"decode", ParamType::kString, "full",
                       "full (decode at full size and resize from there, as transformers does: "
                       "the model's own input) or working (resize from the shared working "
                       "image, at most 512 px: one decode less, slightly different pixels)"}});
  spec.takes = ItemKind::kImage;
  spec.resources_for = onnx_stage_resources;
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
  spec.resources_for = onnx_stage_resources;
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
  spec.resources_for = onnx_stage_resources;
  return spec;
}

}  // namespace winnow
