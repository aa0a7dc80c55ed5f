// fasttext_quality: NeMo Curator's FastTextQualityFilter (the GPT-3 recipe). A binary fastText
// classifier scores each document with P(label) (the top probability when the top label is
// `label`, else one minus it, exactly as NeMo computes it), and the document is kept when a
// Pareto(alpha) draw exceeds 1 - P(label): good documents are almost always kept, poor ones
// with probability (2 - P)^-alpha. NeMo draws from numpy's global generator, so its decisions
// depend on partitioning; here the draw is a hash of the document key and the seed, so they
// do not depend on threads or batch sizes.
#include <cmath>
#include <memory>

#include "core/hash.h"
#include "stages/builtin_stages.h"
#include "models/fasttext_model.h"

namespace winnow {

namespace {

class FastTextQualityStage final : public Stage {
 public:
  FastTextQualityStage(std::shared_ptr<const FastTextModel> model, int32_t label, double alpha,
                       uint64_t seed, bool annotate, std::string field, StageContext& context)
      : model_(std::move(model)),
        label_(label),
        inverse_alpha_(1.0 / alpha),
        seed_(seed),
        annotate_(annotate),
        field_(std::move(field)),
        low_quality_(context.declare_reason("low_quality")) {}

  Status process(DocBatch& batch) override {
    AnnotationColumn* column =
        annotate_ ? &batch.annotation(field_, AnnotationType::kFloat) : nullptr;
    std::vector<FastTextPrediction> predictions;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      model_->predict(batch.text(i), 1, predictions);
      // A text without any token gets no prediction; score it as the model's floor, 0.
      double score = 0.0;
      if (!predictions.empty()) {
        score = predictions[0].label == label_ ? predictions[0].probability
                                               : 1.0 - predictions[0].probability;
      }
      if (column) column->set_float(i, score);
      // numpy's pareto(a) is the Lomax distribution: U^(-1/a) - 1 for U uniform in (0, 1].
      double u = 1.0 - unit_interval(hash_u64(batch.key(i).value(), seed_));
      double draw = std::pow(u, -inverse_alpha_) - 1.0;
      if (!(draw > 1.0 - score)) batch.drop(i, low_quality_, score);
    }
    return Status::ok();
  }

 private:
  std::shared_ptr<const FastTextModel> model_;
  int32_t label_;
  double inverse_alpha_;
  uint64_t seed_;
  bool annotate_;
  std::string field_;
  ReasonId low_quality_;
};

}  // namespace

StageSpec fasttext_quality_spec() {
  return {
      "fasttext_quality",
      "NeMo's fastText quality filter: keeps a document when a seeded Pareto(alpha) draw "
      "exceeds 1 - P(label) (deterministic per document key).",
      {
          {"model", ParamType::kString, "", "binary fastText quality classifier (.bin or .ftz)",
           true},
          {"label", ParamType::kString, "__label__hq", "the high-quality label"},
          {"alpha", ParamType::kFloat, "3", "shape of the Pareto draw (NeMo: 3)"},
          {"seed", ParamType::kInt, "", "seed of the draw (default: the pipeline seed)"},
          {"annotate", ParamType::kBool, "true", "record P(label) in `field`"},
          {"field", ParamType::kString, "", "field for P(label) (default: the stage name)"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        auto model = FastTextModel::load(p.get_string("model"));
        if (!model.is_ok()) return p.error("model", model.status().message());
        int32_t label = model.value()->find_label(p.get_string("label"));
        if (label < 0) {
          return p.error("label", "'" + p.get_string("label") +
                                      "' is not a label of the model; its labels are " +
                                      model.value()->labels_text());
        }
        double alpha = p.get_float("alpha");
        if (!(alpha > 0.0 && std::isfinite(alpha))) return p.error("alpha", "must be above 0");
        uint64_t seed = p.has("seed") ? static_cast<uint64_t>(p.get_int("seed")) : context.seed();
        // Different quality stages in one pipeline draw independently.
        seed ^= hash64(context.stage_name());
        std::string field =
            p.get_string("field").empty() ? context.stage_name() : p.get_string("field");
        return std::unique_ptr<Stage>(new FastTextQualityStage(std::move(model).value(), label,
                                                               alpha, seed, p.get_bool("annotate"),
                                                               std::move(field), context));
      },
  };
}

}  // namespace winnow
