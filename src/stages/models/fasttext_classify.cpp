// fasttext_classify: runs any supervised fastText model over each document, annotates its top
// label and probability (and optionally every label's probability), and optionally keeps only
// documents whose probability for one label reaches a threshold.
#include <memory>

#include "stages/builtin_stages.h"
#include "models/fasttext_model.h"

namespace winnow {

namespace {

class FastTextClassifyStage final : public Stage {
 public:
  FastTextClassifyStage(std::shared_ptr<const FastTextModel> model, std::string field,
                        bool annotate, bool all_scores, int32_t keep_label, double min_score,
                        StageContext& context)
      : model_(std::move(model)),
        field_(std::move(field)),
        annotate_(annotate),
        all_scores_(all_scores),
        keep_label_(keep_label),
        min_score_(min_score),
        low_score_(context.declare_reason("low_score")) {
    for (const auto& label : model_->labels()) label_fields_.push_back(field_ + "_" + label);
  }

  Status process(DocBatch& batch) override {
    AnnotationColumn* label_column = nullptr;
    AnnotationColumn* score_column = nullptr;
    std::vector<AnnotationColumn*> label_columns;
    if (annotate_) {
      label_column = &batch.annotation(field_, AnnotationType::kString);
      score_column = &batch.annotation(field_ + "_score", AnnotationType::kFloat);
      if (all_scores_) {
        for (const auto& name : label_fields_) {
          label_columns.push_back(&batch.annotation(name, AnnotationType::kFloat));
        }
      }
    }
    // Every label's probability is needed for a keep rule or all_scores; else only the top one.
    const int k = (keep_label_ >= 0 || all_scores_) ? -1 : 1;
    std::vector<FastTextPrediction> predictions;
    std::vector<double> probability(model_->labels().size());
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      model_->predict(batch.text(i), k, predictions);
      std::fill(probability.begin(), probability.end(), 0.0);
      for (const auto& p : predictions) probability[p.label] = p.probability;
      if (label_column) {
        // A text without any token has no prediction: no label, score 0.
        label_column->set_string(
            i, predictions.empty() ? std::string() : model_->labels()[predictions[0].label]);
        score_column->set_float(i, predictions.empty() ? 0.0 : predictions[0].probability);
        for (size_t l = 0; l < label_columns.size(); ++l) {
          label_columns[l]->set_float(i, probability[l]);
        }
      }
      if (keep_label_ >= 0 && probability[keep_label_] < min_score_) {
        batch.drop(i, low_score_, probability[keep_label_]);
      }
    }
    return Status::ok();
  }

 private:
  std::shared_ptr<const FastTextModel> model_;
  std::string field_;
  std::vector<std::string> label_fields_;
  bool annotate_, all_scores_;
  int32_t keep_label_;  // -1: no keep rule
  double min_score_;
  ReasonId low_score_;
};

}  // namespace

StageSpec fasttext_classify_spec() {
  return {
      "fasttext_classify",
      "Classifies documents with a supervised fastText model: annotates the top label and its "
      "probability; with keep_label, keeps documents whose probability for it is >= min_score.",
      {
          {"model", ParamType::kString, "", "the fastText model (.bin or .ftz)", true},
          {"field", ParamType::kString, "",
           "field for the top label; its probability goes to FIELD_score (default: the stage "
           "name)"},
          {"annotate", ParamType::kBool, "true", "record the top label and its probability"},
          {"all_scores", ParamType::kBool, "false",
           "also record every label's probability, in FIELD_<label>"},
          {"keep_label", ParamType::kString, "",
           "keep only documents whose probability for this label (with or without __label__) "
           "is at least min_score; default: keep all"},
          {"min_score", ParamType::kFloat, "0.5", "threshold of the keep rule"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        auto model = FastTextModel::load(p.get_string("model"));
        if (!model.is_ok()) return p.error("model", model.status().message());
        int32_t keep_label = -1;
        if (p.given("keep_label")) {
          keep_label = model.value()->find_label(p.get_string("keep_label"));
          if (keep_label < 0) {
            return p.error("keep_label", "'" + p.get_string("keep_label") +
                                             "' is not a label of the model; its labels are " +
                                             model.value()->labels_text());
          }
        } else if (p.given("min_score")) {
          return p.error("min_score", "has no effect without keep_label");
        }
        double min_score = p.get_float("min_score");
        if (!(min_score >= 0.0 && min_score <= 1.0))
          return p.error("min_score", "must be in [0, 1]");
        std::string field =
            p.get_string("field").empty() ? context.stage_name() : p.get_string("field");
        return std::unique_ptr<Stage>(new FastTextClassifyStage(
            std::move(model).value(), std::move(field), p.get_bool("annotate"),
            p.get_bool("all_scores"), keep_label, min_score, context));
      },
  };
}

}  // namespace winnow
