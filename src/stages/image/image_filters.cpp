// Image filters: size and shape from the image's header (no decoding), file size, blur
// (variance of the Laplacian of the working image) and BRISQUE. The stages that need pixels
// share one decode per image (media/decoded_images.h); an image no decoder can read is an error
// record from the first of them (stages/image/undecodable_images.h; readers already refuse an
// unreadable header and a decompression bomb as error records).
#include <fmt/format.h>

#include <limits>

#include "core/image_header.h"
#include "media/decoded_images.h"
#include "media/image_measures.h"
#include "stages/builtin_stages.h"
#include "stages/image/undecodable_images.h"

namespace winnow {

namespace {

constexpr double kNoLimit = std::numeric_limits<double>::infinity();

class ImageSizeFilter final : public Stage {
 public:
  struct Limits {
    int64_t min_width = 0, min_height = 0, max_width = 0, max_height = 0;  // 0: none
    double max_aspect_ratio = kNoLimit;
    int64_t min_bytes = 0, max_bytes = 0;  // 0: none
  };
  ImageSizeFilter(Limits limits, bool annotate, StageContext& context)
      : limits_(limits),
        annotate_(annotate),
        width_column_(context.stage_name() + "_width"),
        height_column_(context.stage_name() + "_height"),
        too_small_(context.declare_reason("too_small")),
        too_large_(context.declare_reason("too_large")),
        aspect_ratio_(context.declare_reason("aspect_ratio")),
        file_too_small_(context.declare_reason("file_too_small")),
        file_too_large_(context.declare_reason("file_too_large")),
        undecodable_(context) {}

  Status process(DocBatch& batch) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      const Payload* payload = batch.payload(i);
      auto header = payload ? ImageHeader::parse(payload->bytes()) : std::nullopt;
      if (!header) {
        WINNOW_RETURN_IF_ERROR(undecodable_.report(batch, i, "its header cannot be read"));
        continue;
      }
      const auto width = static_cast<int64_t>(header->width);
      const auto height = static_cast<int64_t>(header->height);
      if (annotate_) {
        batch.annotation(width_column_, AnnotationType::kInt).set_int(i, width);
        batch.annotation(height_column_, AnnotationType::kInt).set_int(i, height);
      }
      const auto bytes = static_cast<int64_t>(payload->size);
      const double aspect = static_cast<double>(std::max(width, height)) /
                            static_cast<double>(std::min(width, height));
      if (width < limits_.min_width || height < limits_.min_height) {
        batch.drop(i, too_small_, static_cast<double>(std::min(width, height)));
      } else if ((limits_.max_width > 0 && width > limits_.max_width) ||
                 (limits_.max_height > 0 && height > limits_.max_height)) {
        batch.drop(i, too_large_, static_cast<double>(std::max(width, height)));
      } else if (aspect > limits_.max_aspect_ratio) {
        batch.drop(i, aspect_ratio_, aspect);
      } else if (bytes < limits_.min_bytes) {
        batch.drop(i, file_too_small_, static_cast<double>(bytes));
      } else if (limits_.max_bytes > 0 && bytes > limits_.max_bytes) {
        batch.drop(i, file_too_large_, static_cast<double>(bytes));
      }
    }
    return Status::ok();
  }

 private:
  Limits limits_;
  bool annotate_;
  std::string width_column_, height_column_;
  ReasonId too_small_, too_large_, aspect_ratio_, file_too_small_, file_too_large_;
  UndecodableImages undecodable_;
};

// A filter on one measure of the working image: drops items whose score is past the limit.
class ImageScoreFilter final : public Stage {
 public:
  using Measure = std::function<double(const ImagePixels&)>;
  ImageScoreFilter(Measure measure, double limit, bool keep_above, bool annotate,
                   const std::string& reason, StageContext& context)
      : measure_(std::move(measure)),
        limit_(limit),
        keep_above_(keep_above),
        annotate_(annotate),
        column_(context.stage_name()),
        reason_(context.declare_reason(reason)),
        undecodable_(context) {}

  Status process(DocBatch& batch) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::string why;
      const ImagePixels* image = decoded_image(batch, i, &why);
      if (!image) {
        WINNOW_RETURN_IF_ERROR(undecodable_.report(batch, i, why));
        continue;
      }
      double score = measure_(*image);
      if (annotate_) batch.annotation(column_, AnnotationType::kFloat).set_float(i, score);
      if (keep_above_ ? score < limit_ : score > limit_) batch.drop(i, reason_, score);
    }
    return Status::ok();
  }

 private:
  Measure measure_;
  double limit_;
  bool keep_above_;
  bool annotate_;
  std::string column_;
  ReasonId reason_;
  UndecodableImages undecodable_;
};

}  // namespace

StageSpec image_size_filter_spec() {
  StageSpec spec{
      "image_size_filter",
      "Keeps images whose width, height, aspect ratio (longer side / shorter side) and encoded "
      "size lie within the limits; read from the image's header, nothing is decoded. Reasons "
      "too_small, too_large, aspect_ratio, file_too_small, file_too_large (score: the value); "
      "an unreadable header is an error record (undecodable_image).",
      {
          {"min_width", ParamType::kInt, "0", "fewest pixels across"},
          {"min_height", ParamType::kInt, "0", "fewest pixels down"},
          {"max_width", ParamType::kInt, "0", "most pixels across (0: no limit)"},
          {"max_height", ParamType::kInt, "0", "most pixels down (0: no limit)"},
          {"max_aspect_ratio", ParamType::kFloat, "0",
           "largest longer side / shorter side (0: no limit; NeMo's default 3.0)"},
          {"min_bytes", ParamType::kInt, "0", "smallest encoded image (the image member alone)"},
          {"max_bytes", ParamType::kInt, "0", "largest encoded image (0: no limit)"},
          {"annotate", ParamType::kBool, "false",
           "record the size in the fields <stage>_width and <stage>_height"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        ImageSizeFilter::Limits l;
        l.min_width = p.get_int("min_width");
        l.min_height = p.get_int("min_height");
        l.max_width = p.get_int("max_width");
        l.max_height = p.get_int("max_height");
        l.min_bytes = p.get_int("min_bytes");
        l.max_bytes = p.get_int("max_bytes");
        for (const char* key :
             {"min_width", "min_height", "max_width", "max_height", "min_bytes", "max_bytes"}) {
          if (p.get_int(key) < 0) return p.error(key, "must be 0 or more");
        }
        if (l.max_width > 0 && l.max_width < l.min_width) {
          return p.error("max_width", "must be at least min_width");
        }
        if (l.max_height > 0 && l.max_height < l.min_height) {
          return p.error("max_height", "must be at least min_height");
        }
        if (l.max_bytes > 0 && l.max_bytes < l.min_bytes) {
          return p.error("max_bytes", "must be at least min_bytes");
        }
        double aspect = p.get_float("max_aspect_ratio");
        if (aspect != 0 && aspect < 1) return p.error("max_aspect_ratio", "must be 0 or >= 1");
        if (aspect > 0) l.max_aspect_ratio = aspect;
        return std::unique_ptr<Stage>(new ImageSizeFilter(l, p.get_bool("annotate"), context));
      },
  };
  spec.takes = ItemKind::kImage;
  return spec;
}

StageSpec image_blur_filter_spec() {
  StageSpec spec{
      "image_blur_filter",
      fmt::format("Drops blurry images: the variance of the Laplacian of the grey working image "
                  "(reduced by a whole factor to at most {} px on the longer side) below "
                  "min_variance (reason blurry, score: the "
                  "variance); an undecodable image is an error record (undecodable_image).",
                  kWorkingSide),
      {
          {"min_variance", ParamType::kFloat, "100",
           "least Laplacian variance kept (100 is the usual starting point; measure yours with "
           "annotate)"},
          {"annotate", ParamType::kBool, "true",
           "record the variance in a field named after "
           "the stage"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        double min = p.get_float("min_variance");
        if (min < 0) return p.error("min_variance", "must be 0 or more");
        return std::unique_ptr<Stage>(new ImageScoreFilter(
            laplacian_variance, min, true, p.get_bool("annotate"), "blurry", context));
      },
  };
  spec.takes = ItemKind::kImage;
  return spec;
}

StageSpec image_brisque_filter_spec() {
  StageSpec spec{
      "image_brisque_filter",
      "Drops images of poor perceptual quality: BRISQUE (no-reference; 0 best, 100 worst) of "
      "the working image above max_score, with OpenCV's model trained on LIVE (Debian's "
      "opencv-data). Reason low_quality (score: BRISQUE); an undecodable image is an error record "
      "(undecodable_image).",
      {
          {"max_score", ParamType::kFloat, "60", "highest BRISQUE score kept"},
          {"model_file", ParamType::kString, "/usr/share/opencv4/quality/brisque_model_live.yml",
           "the SVM model (opencv-data)"},
          {"range_file", ParamType::kString, "/usr/share/opencv4/quality/brisque_range_live.yml",
           "the feature ranges (opencv-data)"},
          {"annotate", ParamType::kBool, "true",
           "record the score in a field named after the "
           "stage"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        double max = p.get_float("max_score");
        auto scorer = BrisqueScorer::create(p.get_string("model_file"), p.get_string("range_file"));
        if (!scorer.is_ok()) return p.error("model_file", scorer.status().message());
        auto measure = [scorer = std::move(scorer).value()](const ImagePixels& image) {
          return scorer.score(image);
        };
        return std::unique_ptr<Stage>(new ImageScoreFilter(
            measure, max, false, p.get_bool("annotate"), "low_quality", context));
      },
  };
  spec.takes = ItemKind::kImage;
  return spec;
}

}  // namespace winnow
