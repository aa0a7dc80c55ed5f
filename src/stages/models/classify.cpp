// classify: a Hugging Face sequence classifier exported to ONNX (a model folder whose model.onnx
// has a `logits` output [batch, labels]), run on each kept document. The kind comes from
// config.json:
// - classification (id2label with several labels): softmax over the logits; the top label in
//   FIELD, its probability in FIELD_score; `keep_labels` drops the others (`other_label`),
//   `min_score` drops a top label less probable than that (`low_score`).
// - regression (problem_type "regression", or one label): the raw score in FIELD_score and
//   NeMo's FineWeb-Edu mapping int_score = round(clamp(score, 0, 5)) in FIELD_int_score;
//   `min_score` drops documents scoring below it (`low_score`).
// `preset` sets NeMo's settings for its classifiers (stages/models/classifier_presets.h): the
// text cut, max tokens, annotation names, labels and, for FineWeb-Edu, NeMo's three outputs.
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "core/number_text.h"
#include "models/onnx_text_embedder.h"
#include "stages/builtin_stages.h"
#include "stages/models/classifier_presets.h"
#include "stages/models/onnx_model_params.h"
#include "stages/models/token_ids_cache.h"

namespace winnow {

namespace {

struct ClassifierConfig {
  std::vector<std::string> labels;  // by id
  bool regression = false;
};

Result<ClassifierConfig> read_config(const std::string& folder, const ClassifierPreset* preset) {
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
      int64_t id = parse_number<int64_t>(key).value_or(-1);
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
  if (out.labels.empty() && preset != nullptr) out.labels = preset->labels;
  std::string_view problem;
  out.regression =
      (!config["problem_type"].get(problem) && problem == "regression") || out.labels.size() == 1;
  if (preset != nullptr && preset->regression != out.regression) {
    return Status::errorf("'{}': preset {} is a {}, but the model is a {} ({} labels)", path,
                          preset->name, preset->regression ? "regressor" : "classifier",
                          out.regression ? "regressor" : "classifier", out.labels.size());
  }
  if (!out.regression && out.labels.size() < 2) {
    return Status::errorf("'{}' has no id2label with the classifier's labels", path);
  }
  return out;
}

class ClassifyStage final : public Stage {
 public:
  struct Outputs {
    std::string field, score_field, int_score_field;
    size_t max_chars = 0;   // 0: the whole text
    bool nemo_edu = false;  // NeMo's FineWeb-Edu outputs: a label and the score clamped
  };
  ClassifyStage(std::unique_ptr<OnnxTextEmbedder> model, ClassifierConfig config, Outputs outputs,
                std::set<std::string> keep_labels, double min_score, StageContext& context)
      : model_(std::move(model)),
        tokens_(*model_, outputs.max_chars, context.stage_name()),
        config_(std::move(config)),
        outputs_(std::move(outputs)),
        keep_labels_(std::move(keep_labels)),
        min_score_(min_score),
        other_label_(context.declare_reason("other_label")),
        low_score_(context.declare_reason("low_score")) {}

  Status process(DocBatch& batch) override {
    // NeMo cuts the text to max_chars characters (code points) before tokenising.
    const KeptRowTokens tokens = tokens_.of(batch);
    const std::vector<size_t>& rows = tokens.rows;
    AnnotationColumn* label_column =
        config_.regression && !outputs_.nemo_edu
            ? nullptr
            : &batch.annotation(outputs_.field, AnnotationType::kString);
    AnnotationColumn& score_column = batch.annotation(outputs_.score_field, AnnotationType::kFloat);
    AnnotationColumn* int_column =
        config_.regression ? &batch.annotation(outputs_.int_score_field, AnnotationType::kInt)
                           : nullptr;
    if (rows.empty()) return Status::ok();
    std::vector<float> logits;
    WINNOW_RETURN_IF_ERROR(model_->embed_tokens(tokens.ids, logits));
    const size_t n = logits.size() / rows.size();
    if (n != (config_.regression ? 1 : config_.labels.size())) {
      return Status::errorf("classify: the model gives {} logits per document; config.json has {}",
                            n, config_.regression ? 1 : config_.labels.size());
    }
    for (size_t k = 0; k < rows.size(); ++k) {
      const float* row = logits.data() + k * n;
      const size_t i = rows[k];
      if (config_.regression) {
        double score = row[0];
        double clamped = std::clamp(score, 0.0, 5.0);
        score_column.set_float(i, outputs_.nemo_edu ? clamped : score);
        // Half to even, as torch.round (NeMo rounds the logit tensor).
        int_column->set_int(i, static_cast<int64_t>(std::nearbyint(clamped)));
        if (outputs_.nemo_edu) {
          const char* label = score >= 2.5 ? "high_quality" : "low_quality";
          label_column->set_string(i, label);
          if (!keep_labels_.empty() && !keep_labels_.count(label)) {
            batch.drop(i, other_label_, score);
            continue;
          }
        }
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
  ModelStageTokens tokens_;
  ClassifierConfig config_;
  Outputs outputs_;
  std::set<std::string> keep_labels_;
  double min_score_;
  ReasonId other_label_;
  ReasonId low_score_;
};

// keep_labels, checked against the model's labels (NeMo's FineWeb-Edu classifiers label
// high_quality or low_quality); `nemo_edu`: a preset regressor of NeMo's.
Status read_keep_labels(const StageParams& p, const ClassifierConfig& config, bool nemo_edu,
                        std::set<std::string>& keep) {
  // NeMo's FineWeb-Edu label is high_quality or low_quality.
  const std::vector<std::string> labels =
      nemo_edu ? std::vector<std::string>{"high_quality", "low_quality"} : config.labels;
  if (p.has("keep_labels")) {
    for (const std::string& label : p.get_string_list("keep_labels")) {
      if (std::find(labels.begin(), labels.end(), label) == labels.end()) {
        std::string known;
        for (const auto& l : labels) known += (known.empty() ? "" : ", ") + l;
        return p.error("keep_labels",
                       "'" + label + "' is not a label of the model; its labels are " + known);
      }
      keep.insert(label);
    }
    if (config.regression && !nemo_edu && !keep.empty()) {
      return p.error("keep_labels", "a regression model has no labels; use min_score");
    }
  }
  return Status::ok();
}

// The annotations written (the preset's names unless given) and the characters tokenised.
ClassifyStage::Outputs read_outputs(const StageParams& p, const ClassifierPreset* preset,
                                    int64_t max_chars, StageContext& context) {
  ClassifyStage::Outputs outputs;
  outputs.field = !p.get_string("field").empty() ? p.get_string("field")
                  : preset != nullptr            ? std::string(preset->field)
                                                 : context.stage_name();
  outputs.score_field = !p.get_string("score_field").empty() ? p.get_string("score_field")
                        : preset != nullptr && !preset->score_field.empty()
                            ? std::string(preset->score_field)
                            : outputs.field + "_score";
  outputs.int_score_field =
      !p.get_string("int_score_field").empty()                ? p.get_string("int_score_field")
      : preset != nullptr && !preset->int_score_field.empty() ? std::string(preset->int_score_field)
                                                              : outputs.field + "_int_score";
  outputs.max_chars = max_chars > 0       ? static_cast<size_t>(max_chars)
                      : preset != nullptr ? preset->max_chars
                                          : 0;
  outputs.nemo_edu = preset != nullptr && preset->regression;
  return outputs;
}

}  // namespace

StageSpec classify_spec() {
  StageSpec spec{
      "classify",
      "A Hugging Face sequence classifier exported to ONNX (quality, domain, FineWeb-Edu...): "
      "the top label and its softmax probability, or a regression score with NeMo's FineWeb-Edu "
      "int_score = round(clamp(score, 0, 5)); filters by keep_labels or min_score. `preset` "
      "gives NeMo's settings for its classifiers, so only the model folder is needed.",
      {
          {"model", ParamType::kString, "",
           "a model folder: model.onnx with a logits output, tokenizer.json (WordPiece, BPE or "
           "Unigram) or spm.model, config.json with id2label (and problem_type: regression for a "
           "regressor)",
           true},
          {"preset", ParamType::kString, "",
           "NeMo's settings for one of its classifiers: quality (QualityClassifier: text cut to "
           "6000 characters, 1024 tokens, field quality_pred), domain (DomainClassifier: 2000, "
           "512, domain_pred), multilingual_domain (MultilingualDomainClassifier), content_type "
           "(ContentTypeClassifier: 6000, 1024, content_pred), fineweb_edu (FineWebEduClassifier: "
           "512 tokens; fineweb-edu-score-label high_quality when the score >= 2.5, "
           "fineweb-edu-score-float clamped to [0, 5], fineweb-edu-score-int), "
           "fineweb_mixtral_edu, fineweb_nemotron_edu (their NeMo names work too)"},
          {"max_chars", ParamType::kInt, "0",
           "cut each text to this many characters before tokenising, as NeMo does (0: the "
           "preset's, else no cut)"},
          {"field", ParamType::kString, "",
           "annotation for the label (default: the preset's, else the stage name); FIELD_score "
           "gets the probability or score, FIELD_int_score a regressor's int score"},
          {"score_field", ParamType::kString, "",
           "annotation for the probability or score (default: the preset's, else FIELD_score)"},
          {"int_score_field", ParamType::kString, "",
           "annotation for a regressor's int score (default: the preset's, else "
           "FIELD_int_score)"},
          {"keep_labels", ParamType::kStringList, "",
           "labels to keep (others are dropped as other_label); empty: all"},
          {"min_score", ParamType::kFloat, "",
           "drop as low_score below this top-label probability or regression score"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        OnnxTextEmbedderOptions options;
        if (auto error = read_onnx_model_params(p, options)) return *error;
        const ClassifierPreset* preset = nullptr;
        if (auto error = read_classifier_preset(p, preset)) return *error;
        if (preset != nullptr && options.max_tokens == 0) options.max_tokens = preset->max_tokens;
        int64_t max_chars = p.get_int("max_chars");
        if (max_chars < 0) return p.error("max_chars", "must be 0 or more");
        options.pooling = Pooling::kModel;
        options.output = "logits";
        options.normalize = false;
        const std::string& folder = p.get_string("model");
        auto model = OnnxTextEmbedder::load(folder, options);
        if (!model.is_ok()) return p.error("model", model.status().message());
        auto config = read_config(folder, preset);
        if (!config.is_ok()) return p.error("model", config.status().message());
        std::set<std::string> keep;
        const bool nemo_edu = preset != nullptr && preset->regression;
        if (Status status = read_keep_labels(p, *config, nemo_edu, keep); !status.is_ok()) {
          return status;
        }
        double min_score = p.has("min_score") ? p.get_float("min_score") : -INFINITY;
        ClassifyStage::Outputs outputs = read_outputs(p, preset, max_chars, context);
        return std::unique_ptr<Stage>(
            new ClassifyStage(std::move(model).value(), std::move(config).value(),
                              std::move(outputs), std::move(keep), min_score, context));
      },
  };
  auto shared = onnx_model_params("");
  spec.params.insert(spec.params.end(), shared.begin(), shared.end());
  spec.resources_for = onnx_stage_resources;
  return spec;
}

}  // namespace winnow
