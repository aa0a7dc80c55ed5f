// Model stages on clips, with an image encoder on frames sampled from each clip's span (the
// frames the anchor extracts: 2 fps for embeddings, 1 fps for aesthetics):
//  - clip_embed: the mean of the frames' embeddings, L2-normalised, as the clip's embedding —
//    the CLIP-style baseline for clip semantic dedup (the anchor's video encoders,
//    InternVideo2 and Cosmos-Embed1, take several frames at once; one exported to ONNX with a
//    [batch, 3, H, W] input per frame would not be the same model);
//  - clip_aesthetic_filter: each frame's embedding through an aesthetic head, the clip's score
//    the minimum (the anchor's default) or the mean of its frames', kept at or above
//    min_score.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "media/video_codecs.h"
#include "stages/builtin_stages.h"
#include "stages/image/image_encoder.h"
#include "stages/models/onnx_model_params.h"
#include "stages/video/clip_fields.h"

namespace winnow {

namespace {

// The clip's frames at `fps`, at most `max_frames` (the rate lowered so that many spread over
// the span, rather than decoding more and keeping some: frames are held at the source's size,
// which the preprocessing resizes from as the model's processor does).
Status sample_frames(const clip_fields::ClipSource& source, double fps, size_t max_frames,
                     std::vector<ImagePixels>& frames) {
  frames.clear();
  FrameRequest request;
  request.begin_s = source.span.begin_s;
  request.end_s = source.span.end_s;
  const double duration = source.span.end_s - source.span.begin_s;
  if (max_frames > 0 && duration > 0 && duration * fps > static_cast<double>(max_frames)) {
    fps = static_cast<double>(max_frames) / duration;
  }
  request.sample_fps = fps;
  return decode_video_frames(source.path, request, [&](VideoFrame& frame) {
    ImagePixels& image = frames.emplace_back();
    image.width = frame.width;
    image.height = frame.height;
    image.source_width = static_cast<uint32_t>(frame.source_width);
    image.source_height = static_cast<uint32_t>(frame.source_height);
    image.bgr = std::move(frame.bgr);
    return max_frames == 0 || frames.size() < max_frames;
  });
}

class ClipModelStage : public Stage {
 protected:
  ClipModelStage(std::unique_ptr<ImageEncoder> encoder, double fps, size_t max_frames,
                 StageContext& context)
      : encoder_(std::move(encoder)),
        fps_(fps),
        max_frames_(max_frames),
        undecodable_(context.declare_reason("undecodable")) {}

  // The frames' embeddings (rows of `columns`, L2-normalised); false (and the clip dropped as
  // undecodable) when no frame could be read.
  Result<bool> frame_embeddings(DocBatch& batch, size_t row, std::vector<float>& vectors,
                                size_t& columns, size_t& frames) {
    auto source = clip_fields::clip_source(batch, row);
    std::vector<ImagePixels> pictures;
    if (!source || !sample_frames(*source, fps_, max_frames_, pictures).is_ok() ||
        pictures.empty()) {
      batch.drop(row, undecodable_);
      return false;
    }
    std::vector<const ImagePixels*> pointers;
    for (const ImagePixels& p : pictures) pointers.push_back(&p);
    WINNOW_RETURN_IF_ERROR(encoder_->embed(pointers, true, vectors, columns, batch.id(row)));
    frames = pictures.size();
    return true;
  }

 private:
  std::unique_ptr<ImageEncoder> encoder_;
  double fps_;
  size_t max_frames_;
  ReasonId undecodable_;
};

class ClipEmbedStage final : public ClipModelStage {
 public:
  ClipEmbedStage(std::unique_ptr<ImageEncoder> encoder, double fps, size_t max_frames,
                 std::string field, StageContext& context)
      : ClipModelStage(std::move(encoder), fps, max_frames, context), field_(std::move(field)) {}

  Status process(DocBatch& batch) override {
    std::vector<float> vectors, mean;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      size_t columns = 0, frames = 0;
      auto ok = frame_embeddings(batch, i, vectors, columns, frames);
      if (!ok.is_ok()) return Status::errorf("clip_embed: {}", ok.status().message());
      if (!ok.value()) continue;
      mean.assign(columns, 0.0f);
      // Summed in frame order in double: the same bytes whatever the batching.
      for (size_t d = 0; d < columns; ++d) {
        double sum = 0;
        for (size_t f = 0; f < frames; ++f) sum += vectors[f * columns + d];
        mean[d] = static_cast<float>(sum / static_cast<double>(frames));
      }
      l2_normalize(mean);
      batch.annotation(field_, AnnotationType::kFloatVector).set_vector(i, mean);
    }
    return Status::ok();
  }

 private:
  std::string field_;
};

class ClipAestheticFilter final : public ClipModelStage {
 public:
  ClipAestheticFilter(std::unique_ptr<ImageEncoder> encoder,
                      std::unique_ptr<OnnxFloatModel> head, double fps, size_t max_frames,
                      bool use_mean, double min_score, bool score_only, StageContext& context)
      : ClipModelStage(std::move(encoder), fps, max_frames, context),
        head_(std::move(head)),
        use_mean_(use_mean),
        min_score_(min_score),
        score_only_(score_only),
        column_(context.stage_name()),
        low_(context.declare_reason("low_aesthetic")) {}

  Status process(DocBatch& batch) override {
    std::vector<float> vectors, scores;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      size_t columns = 0, frames = 0;
      auto ok = frame_embeddings(batch, i, vectors, columns, frames);
      if (!ok.is_ok()) return Status::errorf("{}: {}", column_, ok.status().message());
      if (!ok.value()) continue;
      if (columns != head_->item_size()) {
        return Status::errorf("{}: the encoder gives {} values per frame, the head takes {}",
                              column_, columns, head_->item_size());
      }
      size_t width = 0;
      WINNOW_RETURN_IF_ERROR(head_->run(vectors, frames, scores, width));
      if (width != 1) {
        return Status::errorf("{}: the head gives {} values per frame, not one score", column_,
                              width);
      }
      double score = use_mean_ ? 0.0 : std::numeric_limits<double>::infinity();
      for (size_t f = 0; f < frames; ++f) {
        score = use_mean_ ? score + scores[f] : std::min(score, double(scores[f]));
      }
      if (use_mean_) score /= static_cast<double>(frames);
      batch.annotation(column_, AnnotationType::kFloat).set_float(i, score);
      if (!score_only_ && !(score >= min_score_)) batch.drop(i, low_, score);
    }
    return Status::ok();
  }

 private:
  std::unique_ptr<OnnxFloatModel> head_;
  bool use_mean_;
  double min_score_;
  bool score_only_;
  std::string column_;
  ReasonId low_;
};

// sample_fps and max_frames, checked.
std::optional<Status> read_sampling(const StageParams& p, double& fps, size_t& max_frames) {
  fps = p.get_float("sample_fps");
  if (!(fps > 0)) return p.error("sample_fps", "must be above 0");
  if (p.get_int("max_frames") < 0) return p.error("max_frames", "must be 0 or more");
  max_frames = static_cast<size_t>(p.get_int("max_frames"));
  return std::nullopt;
}

}  // namespace

StageSpec clip_embed_spec() {
  StageSpec spec{
      "clip_embed",
      "Annotates each clip with an embedding: frames sampled at sample_fps over its span, each "
      "embedded by an image encoder exported to ONNX (as image_embed, preprocessed as its "
      "preprocessor_config.json says), averaged and L2-normalised. The vector feeds "
      "semantic_dedup (clip semantic dedup). Clips none of whose frames decode are dropped "
      "(undecodable).",
      image_encoder_params(),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        double fps = 0;
        size_t max_frames = 0;
        if (auto error = read_sampling(p, fps, max_frames)) return *error;
        auto encoder = load_image_encoder(p);
        if (!encoder.is_ok()) return encoder.status();
        return std::unique_ptr<Stage>(new ClipEmbedStage(std::move(encoder).value(), fps,
                                                         max_frames, p.get_string("field"),
                                                         context));
      },
  };
  spec.params.insert(
      spec.params.begin() + 1,
      {{"field", ParamType::kString, "embedding", "field the vector is written to"},
       {"sample_fps", ParamType::kFloat, "2",
        "frames embedded per second of clip (the anchor's 2 for embeddings)"},
       {"max_frames", ParamType::kInt, "32",
        "most frames per clip: a longer clip is sampled at a lower rate (0: no limit)"}});
  spec.takes = ItemKind::kClip;
  spec.resources_for = onnx_stage_resources;
  return spec;
}

StageSpec clip_aesthetic_filter_spec() {
  StageSpec spec{
      "clip_aesthetic_filter",
      "The anchor's aesthetic filter: frames sampled at sample_fps, each embedded by an image "
      "encoder exported to ONNX (CLIP ViT-L/14's image tower for LAION's predictor) and scored "
      "by an aesthetic head (an ONNX file taking [batch, D]); the clip's score, the minimum or "
      "mean of its frames', is recorded in a field named after the stage and clips under "
      "min_score are dropped (reason low_aesthetic, score: the clip's; undecodable).",
      image_encoder_params("encoder: "),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        double fps = 0;
        size_t max_frames = 0;
        if (auto error = read_sampling(p, fps, max_frames)) return *error;
        const std::string& reduction = p.get_string("reduction");
        if (reduction != "min" && reduction != "mean") {
          return p.error("reduction", "must be min or mean");
        }
        auto encoder = load_image_encoder(p);
        if (!encoder.is_ok()) return encoder.status();
        auto head = load_embedding_head(p, "head", 256);
        if (!head.is_ok()) return head.status();
        return std::unique_ptr<Stage>(new ClipAestheticFilter(
            std::move(encoder).value(), std::move(head).value(), fps, max_frames,
            reduction == "mean", p.get_float("min_score"), p.get_bool("score_only"), context));
      },
  };
  spec.params.insert(
      spec.params.begin() + 1,
      {{"head", ParamType::kString, "",
        "the aesthetic head: an ONNX file (or a folder with model.onnx) taking [batch, D] "
        "L2-normalised embeddings, giving [batch, 1] or [batch] scores"},
       {"min_score", ParamType::kFloat, "3.5",
        "least clip score kept (the anchor's benchmarks: 3.5 on LAION's 1-10 scale)"},
       {"reduction", ParamType::kString, "min",
        "the clip's score from its frames': min (the anchor's) or mean"},
       {"score_only", ParamType::kBool, "false", "record the score, drop nothing"},
       {"sample_fps", ParamType::kFloat, "1",
        "frames scored per second of clip (the anchor's 1 for aesthetics)"},
       {"max_frames", ParamType::kInt, "32",
        "most frames per clip: a longer clip is sampled at a lower rate (0: no limit)"}});
  spec.takes = ItemKind::kClip;
  spec.resources_for = onnx_stage_resources;
  return spec;
}

}  // namespace winnow
