// Clip filters: motion (the anchor's motion filter: H.264 motion vectors, block matching for
// other codecs) and frame quality (sharpness, optionally BRISQUE, over sampled frames). Both read
// the clip's span of its source file (media/clip_measures.h), so they run before transcode_clips (a
// dropped clip is never encoded) or after it.
#include <fmt/format.h>

#include "media/clip_measures.h"
#include "stages/builtin_stages.h"
#include "stages/video/clip_fields.h"

namespace winnow {

namespace {

class MotionFilter final : public Stage {
 public:
  MotionFilter(MotionOptions options, double min_global, double min_patch, bool score_only,
               StageContext& context)
      : options_(options),
        min_global_(min_global),
        min_patch_(min_patch),
        score_only_(score_only),
        column_(context.stage_name()),
        patch_column_(context.stage_name() + "_patch_min"),
        method_column_(context.stage_name() + "_method"),
        low_motion_(context.declare_reason("low_motion")),
        undecodable_(context.declare_reason("undecodable")) {}

  Status process(DocBatch& batch) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      auto source = clip_fields::clip_source(batch, i);
      auto motion = source ? measure_clip_motion(source->path, source->span, options_)
                           : Result<ClipMotion>(Status::error("no source"));
      if (!motion.is_ok() || motion->frames == 0) {
        batch.drop(i, undecodable_);
        continue;
      }
      batch.annotation(column_, AnnotationType::kFloat).set_float(i, motion->global_mean);
      batch.annotation(patch_column_, AnnotationType::kFloat).set_float(i, motion->min_patch_mean);
      batch.annotation(method_column_, AnnotationType::kString)
          .set_string(i, motion->from_vectors ? "motion_vectors" : "block_matching");
      if (score_only_) continue;
      if (motion->global_mean < min_global_) {
        batch.drop(i, low_motion_, motion->global_mean);
      } else if (motion->min_patch_mean < min_patch_) {
        batch.drop(i, low_motion_, motion->min_patch_mean);
      }
    }
    return Status::ok();
  }

 private:
  MotionOptions options_;
  double min_global_, min_patch_;
  bool score_only_;
  std::string column_, patch_column_, method_column_;
  ReasonId low_motion_, undecodable_;
};

class FrameQuality final : public Stage {
 public:
  FrameQuality(double sample_fps, double min_blur, std::optional<BrisqueScorer> brisque,
               double max_brisque, StageContext& context)
      : sample_fps_(sample_fps),
        min_blur_(min_blur),
        brisque_(std::move(brisque)),
        max_brisque_(max_brisque),
        blur_column_(context.stage_name() + "_blur"),
        brisque_column_(context.stage_name() + "_brisque"),
        blurry_(context.declare_reason("blurry")),
        low_quality_(context.declare_reason("low_quality")),
        undecodable_(context.declare_reason("undecodable")) {}

  Status process(DocBatch& batch) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      auto source = clip_fields::clip_source(batch, i);
      auto quality = source ? measure_clip_quality(source->path, source->span, sample_fps_,
                                                   brisque_ ? &*brisque_ : nullptr)
                            : Result<ClipQuality>(Status::error("no source"));
      if (!quality.is_ok()) {
        batch.drop(i, undecodable_);
        continue;
      }
      batch.annotation(blur_column_, AnnotationType::kFloat).set_float(i, quality->blur);
      if (brisque_) {
        batch.annotation(brisque_column_, AnnotationType::kFloat).set_float(i, quality->brisque);
      }
      if (quality->blur < min_blur_) {
        batch.drop(i, blurry_, quality->blur);
      } else if (brisque_ && max_brisque_ > 0 && quality->brisque > max_brisque_) {
        batch.drop(i, low_quality_, quality->brisque);
      }
    }
    return Status::ok();
  }

 private:
  double sample_fps_, min_blur_;
  std::optional<BrisqueScorer> brisque_;
  double max_brisque_;
  std::string blur_column_, brisque_column_;
  ReasonId blurry_, low_quality_, undecodable_;
};

}  // namespace

StageSpec motion_filter_spec() {
  StageSpec spec{
      "motion_filter",
      "Drops clips that barely move, as the anchor's motion filter does: the decoder's H.264 "
      "(or MPEG-4) motion vectors of frames sampled at sample_fps, each vector's length over "
      "(width + height), averaged over the frame (global) and over square patches of the "
      "frame's shorter side (the anchor's 256 x 256 at a shorter side of 256), blocks coded "
      "without a vector counting as moved 16 px; block matching between sampled frames when "
      "the codec exports no vectors. Records the "
      "global mean in a field named after the stage, the least patch in <stage>_patch_min and "
      "the method in <stage>_method. Reasons low_motion (score: the failing mean), undecodable.",
      {
          {"global_mean_threshold", ParamType::kFloat, "0.00098",
           "least global mean motion kept (the anchor's)"},
          {"per_patch_min_256_threshold", ParamType::kFloat, "0.000001",
           "least mean motion of the stillest patch kept (the anchor's)"},
          {"sample_fps", ParamType::kFloat, "2", "frames measured per second of clip"},
          {"score_only", ParamType::kBool, "false", "record the scores, drop nothing"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        MotionOptions o;
        o.sample_fps = p.get_float("sample_fps");
        if (o.sample_fps <= 0) return p.error("sample_fps", "must be above 0");
        double global = p.get_float("global_mean_threshold");
        double patch = p.get_float("per_patch_min_256_threshold");
        if (global < 0) return p.error("global_mean_threshold", "must be 0 or more");
        if (patch < 0) return p.error("per_patch_min_256_threshold", "must be 0 or more");
        return std::unique_ptr<Stage>(
            new MotionFilter(o, global, patch, p.get_bool("score_only"), context));
      },
  };
  spec.takes = ItemKind::kClip;
  return spec;
}

StageSpec frame_quality_spec() {
  StageSpec spec{
      "frame_quality",
      "Drops blurry or poor clips: frames sampled at sample_fps, each at the image stages' "
      "working size, scored by the variance of the Laplacian (sharpness; the mean over frames "
      "in <stage>_blur) and, with brisque, by BRISQUE (0 best .. 100 worst, OpenCV's LIVE "
      "model from opencv-data; the mean in <stage>_brisque). Reasons blurry, low_quality "
      "(score: the mean), undecodable.",
      {
          {"sample_fps", ParamType::kFloat, "1", "frames scored per second of clip"},
          {"min_blur", ParamType::kFloat, "0",
           "least mean Laplacian variance kept (0: keep all; image_blur_filter uses 100)"},
          {"brisque", ParamType::kBool, "false", "also score BRISQUE (slower)"},
          {"max_brisque", ParamType::kFloat, "0", "highest mean BRISQUE kept (0: keep all)"},
          {"model_file", ParamType::kString, "/usr/share/opencv4/quality/brisque_model_live.yml",
           "BRISQUE's SVM model (opencv-data)"},
          {"range_file", ParamType::kString, "/usr/share/opencv4/quality/brisque_range_live.yml",
           "BRISQUE's feature ranges (opencv-data)"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        double fps = p.get_float("sample_fps");
        if (fps <= 0) return p.error("sample_fps", "must be above 0");
        double min_blur = p.get_float("min_blur");
        if (min_blur < 0) return p.error("min_blur", "must be 0 or more");
        double max_brisque = p.get_float("max_brisque");
        if (max_brisque < 0) return p.error("max_brisque", "must be 0 or more");
        std::optional<BrisqueScorer> brisque;
        if (p.get_bool("brisque")) {
          auto scorer =
              BrisqueScorer::create(p.get_string("model_file"), p.get_string("range_file"));
          if (!scorer.is_ok()) return p.error("model_file", scorer.status().message());
          brisque = std::move(scorer).value();
        } else if (max_brisque > 0) {
          return p.error("max_brisque", "needs brisque: true");
        }
        return std::unique_ptr<Stage>(
            new FrameQuality(fps, min_blur, std::move(brisque), max_brisque, context));
      },
  };
  spec.takes = ItemKind::kClip;
  return spec;
}

}  // namespace winnow
