// classify: a Hugging Face sequence classifier exported to ONNX (a model folder whose model.onnx
// has a `logits` output [batch, labels]), run on each kept document. The kind comes from
// config.json:
// - classification (id2label with several labels): softmax over the logits; the top label in
//   FIELD, its probability in FIELD_score; `keep_labels` drops the others (`other_label`),
//   `min_score` drops a top label less probable than that (`low_score`).
// - regression (problem_type "regression", or one label): the raw score in FIELD_score and
//   NeMo's FineWeb-Edu mapping int_score = round(clamp(score, 0, 5)) in FIELD_int_score;
//   `min_score` drops documents scoring below it (`low_score`).
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "models/onnx_text_embedder.h"
#include "stages/builtin_stages.h"
#include "stages/models/onnx_model_params.h"

namespace winnow {

namespace {

struct ClassifierConfig {
  std::vector<std::string> labels;  // by id
  bool regression = false;
};

Result<ClassifierConfig> read_config(const std::string& folder) {
  std::string path = folder + "/config.json";
  simdjson::dom::parser parser;
  simdjson::dom::element config;
  if (parser.load(path).get(config)) {
    return Status::errorf("'{}' is missing or not valid JSON", path);
  }
  ClassifierConfig out;
  simdjson::dom::object id2label;
  if (!config["id2label"].get(id2label)) {
    std::map<int64_t, std::string> by_id;
    for (auto [key, value] : id2label) {
      std::string_view label;
      int64_t id = -1;
      try {
        id = std::stoll(std::string(key));
      } catch (...) {
      }
      if (id < 0 || value.get(label)) {
        return Status::errorf("'{}': id2label entry '{}' is not \"<id>\": \"<label>\"", path, key);
      }
      by_id[id] = std::string(label);
    }
    for (const auto& [id, label] : by_id) {
      if (id != static_cast<int64_t>(out.labels.size())) {
        return Status::errorf("'{}': id2label ids must be 0 to n-1", path);
      }
      out.labels.push_back(label);
    }
  }
  std::string_view problem;
  out.regression =
      (!config["problem_type"].get(problem) && problem == "regression") || out.labels.size() == 1;
  if (!out.regression && out.labels.size() < 2) {
    return Status::errorf("'{}' has no id2label with the classifier's labels", path);
  }
  return out;
}

class ClassifyStage final : public Stage {
 public:
  ClassifyStage(std::unique_ptr<OnnxTextEmbedder> model, ClassifierConfig config, std::string field,
                std::set<std::string> keep_labels, double min_score, StageContext& context)
      : model_(std::move(model)),
        config_(std::move(config)),
        field_(std::move(field)),
        keep_labels_(std::move(keep_labels)),
        min_score_(min_score),
        other_label_(context.declare_reason("other_label")),
        low_score_(context.declare_reason("low_score")) {}

  Status process(DocBatch& batch) override {
    std::vector<std::string_view> texts;
    std::vector<size_t> rows;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      texts.push_back(batch.text(i));
      rows.push_back(i);
    }
    AnnotationColumn* label_column =
        config_.regression ? nullptr : &batch.annotation(field_, AnnotationType::kString);
    AnnotationColumn& score_column = batch.annotation(field_ + "_score", AnnotationType::kFloat);
    AnnotationColumn* int_column =
        config_.regression ? &batch.annotation(field_ + "_int_score", AnnotationType::kInt)
                           : nullptr;
    if (texts.empty()) return Status::ok();
    std::vector<float> logits;
    WINNOW_RETURN_IF_ERROR(model_->embed(texts, logits));
    const size_t n = logits.size() / texts.size();
    if (n != (config_.regression ? 1 : config_.labels.size())) {
      return Status::errorf("classify: the model gives {} logits per document; config.json has {}",
                            n, config_.regression ? 1 : config_.labels.size());
    }
    for (size_t k = 0; k < rows.size(); ++k) {
      const float* row = logits.data() + k * n;
      const size_t i = rows[k];
      if (config_.regression) {
        double score = row[0];
        score_column.set_float(i, score);
        int_column->set_int(i, static_cast<int64_t>(std::round(std::clamp(score, 0.0, 5.0))));
        if (score < min_score_) batch.drop(i, low_score_, score);
        continue;
      }
      // Softmax in double, shifted by the largest logit.
      size_t top = std::max_element(row, row + n) - row;
      double sum = 0;
      for (size_t j = 0; j < n; ++j) sum += std::exp(double(row[j]) - row[top]);
      double probability = 1.0 / sum;
      label_column->set_string(i, config_.labels[top]);
      score_column.set_float(i, probability);
      if (!keep_labels_.empty() && !keep_labels_.count(config_.labels[top])) {
        batch.drop(i, other_label_, probability);
      } else if (probability < min_score_) {
        batch.drop(i, low_score_, probability);
      }
    }
    return Status::ok();
  }

 private:
  std::unique_ptr<OnnxTextEmbedder> model_;
  ClassifierConfig config_;
  std::string field_;
  std::set<std::string> keep_labels_;
  double min_score_;
  ReasonId other_label_;
  ReasonId low_score_;
};

}  // namespace

StageSpec classify_spec() {
  StageSpec spec{
      "classify",
      "A Hugging Face sequence classifier exported to ONNX (quality, domain, FineWeb-Edu...): "
      "the top label and its softmax probability, or a regression score with NeMo's FineWeb-Edu "
      "int_score = round(clamp(score, 0, 5)); filters by keep_labels or min_score.",
      {
          {"model", ParamType::kString, "",
           "a model folder: model.onnx with a logits output, tokenizer.json (WordPiece), "
           "config.json with id2label (and problem_type: regression for a regressor)",
           true},
          {"field", ParamType::kString, "",
           "annotation for the label (default: the stage name); FIELD_score gets the probability "
           "or score, FIELD_int_score a regressor's int score"},
          {"keep_labels", ParamType::kStringList, "",
           "labels to keep (others are dropped as other_label); empty: all"},
          {"min_score", ParamType::kFloat, "",
           "drop as low_score below this top-label probability or regression score"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        OnnxTextEmbedderOptions options;
        if (auto error = read_onnx_model_params(p, options)) return *error;
        options.pooling = Pooling::kModel;
        options.output = "logits";
        options.normalize = false;
        const std::string& folder = p.get_string("model");
        auto model = OnnxTextEmbedder::load(folder, options);
        if (!model.is_ok()) return p.error("model", model.status().message());
        auto config = read_config(folder);
        if (!config.is_ok()) return p.error("model", config.status().message());
        std::set<std::string> keep;
        if (p.has("keep_labels")) {
          for (const std::string& label : p.get_string_list("keep_labels")) {
            if (std::find(config->labels.begin(), config->labels.end(), label) ==
                config->labels.end()) {
              std::string known;
              for (const auto& l : config->labels) known += (known.empty() ? "" : ", ") + l;
              return p.error(
                  "keep_labels",
                  "'" + label + "' is not a label of the model; its labels are " + known);
            }
            keep.insert(label);
          }
          if (config->regression && !keep.empty()) {
            return p.error("keep_labels", "a regression model has no labels; use min_score");
          }
        }
        double min_score = p.has("min_score") ? p.get_float("min_score") : -INFINITY;
        std::string field =
            p.get_string("field").empty() ? context.stage_name() : p.get_string("field");
        return std::unique_ptr<Stage>(new ClassifyStage(std::move(model).value(),
                                                        std::move(config).value(), field,
                                                        std::move(keep), min_score, context));
      },
  };
  auto shared = onnx_model_params("");
  spec.params.insert(spec.params.end(), shared.begin(), shared.end());
  return spec;
}

}  // namespace winnow
