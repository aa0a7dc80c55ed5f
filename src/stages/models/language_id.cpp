// language_id: annotates each document's language and score, and drops documents whose score
// is below min_score or whose language is not among `languages` (when given).
//
// Backends: CLD2 (default; tables built into libcld2, no model file) or a fastText language-ID
// model such as lid.176.bin/.ftz, used as NeMo Curator's FastTextLangId uses it (newlines read
// as spaces, top label, keep when its probability >= 0.3). Codes are the model's labels without
// "__label__" ("en", "ceb"); NeMo keeps only the last two letters upper-cased ("EN", "EB"), a
// lossy form we do not copy. CLD2's codes are mapped to the same ISO 639 codes lid.176 uses
// (he, jv, zh), so a `languages:` list works with either backend.
#include <algorithm>
#include <memory>

#include "core/utf8.h"
#include "stages/builtin_stages.h"
#include "models/fasttext_model.h"
#include "text/cld2_language.h"

namespace winnow {

namespace {

// The first `max_chars` code points of `text` (all of it when max_chars is 0).
std::string_view prefix(std::string_view text, int64_t max_chars) {
  if (max_chars <= 0 || text.size() <= static_cast<size_t>(max_chars)) return text;
  int64_t seen = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!is_utf8_continuation(text[i]) && seen++ == max_chars) {
      return text.substr(0, i);
    }
  }
  return text;
}

// CLD2 keeps a few legacy or script-qualified codes where lid.176 has one plain code.
std::string_view normalize_cld2_code(std::string_view code) {
  if (code == "iw") return "he";
  if (code == "jw") return "jv";
  if (code == "zh-Hant") return "zh";
  return code;
}

class LanguageIdStage final : public Stage {
 public:
  LanguageIdStage(std::shared_ptr<const FastTextModel> model, double min_score, int64_t max_chars,
                  std::vector<std::string> languages, bool annotate, std::string language_field,
                  std::string score_field, StageContext& context)
      : model_(std::move(model)),
        min_score_(min_score),
        max_chars_(max_chars),
        languages_(std::move(languages)),
        annotate_(annotate),
        language_field_(std::move(language_field)),
        score_field_(std::move(score_field)),
        low_score_(context.declare_reason("low_score")),
        other_language_(context.declare_reason("other_language")) {}

  Status process(DocBatch& batch) override {
    AnnotationColumn* language_column = nullptr;
    AnnotationColumn* score_column = nullptr;
    if (annotate_) {
      language_column = &batch.annotation(language_field_, AnnotationType::kString);
      score_column = &batch.annotation(score_field_, AnnotationType::kFloat);
    }
    std::vector<FastTextPrediction> predictions;
    std::string code;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      const std::string_view text = prefix(batch.text(i), max_chars_);
      double score = 0.0;
      if (model_) {
        model_->predict(text, 1, predictions);
        if (predictions.empty()) {
          code = "un";  // no token at all: nothing to identify
        } else {
          code = model_->labels()[predictions[0].label];
          score = predictions[0].probability;
        }
      } else {
        LanguageGuess guess = detect_language_cld2(text);
        code.assign(normalize_cld2_code(guess.code));
        score = guess.score;
      }
      if (language_column) {
        language_column->set_string(i, code);
        score_column->set_float(i, score);
      }
      if (score < min_score_) {
        batch.drop(i, low_score_, score);
      } else if (!languages_.empty() &&
                 std::find(languages_.begin(), languages_.end(), code) == languages_.end()) {
        batch.drop(i, other_language_, score);
      }
    }
    return Status::ok();
  }

 private:
  std::shared_ptr<const FastTextModel> model_;  // null: CLD2
  double min_score_;
  int64_t max_chars_;
  std::vector<std::string> languages_;
  bool annotate_;
  std::string language_field_, score_field_;
  ReasonId low_score_, other_language_;
};

}  // namespace

StageSpec language_id_spec() {
  return {
      "language_id",
      "Identifies each document's language (CLD2, or a fastText model such as lid.176), "
      "annotates it and its score, and keeps documents scoring at least min_score, in the "
      "listed languages when `languages` is given.",
      {
          {"backend", ParamType::kString, "cld2",
           "cld2 (built-in tables, no model file) or fasttext (needs model)"},
          {"model", ParamType::kString, "",
           "fastText language-ID model (lid.176.bin or lid.176.ftz) for backend fasttext"},
          {"min_score", ParamType::kFloat, "0.3",
           "lowest score kept: fastText's top-label probability, or CLD2's share of the text in "
           "the top language"},
          {"languages", ParamType::kStringList, "",
           "keep only these languages (ISO 639 codes as lid.176 labels them: en, de, zh...); "
           "default: any"},
          {"max_chars", ParamType::kInt, "0",
           "identify from the first max_chars code points only (faster on long documents); "
           "0 = the whole text, as NeMo"},
          {"annotate", ParamType::kBool, "true", "record the language and its score"},
          {"language_field", ParamType::kString, "language", "field for the language code"},
          {"score_field", ParamType::kString, "language_score", "field for the score"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        const std::string& backend = p.get_string("backend");
        const std::string& model_path = p.get_string("model");
        std::shared_ptr<const FastTextModel> model;
        if (backend == "fasttext") {
          if (model_path.empty()) return p.error("model", "backend fasttext needs a model path");
          auto loaded = FastTextModel::load(model_path);
          if (!loaded.is_ok()) return p.error("model", loaded.status().message());
          model = std::move(loaded).value();
        } else if (backend == "cld2") {
          if (!model_path.empty()) {
            return p.error("model", "is only used by backend fasttext (backend is cld2)");
          }
        } else {
          return p.error("backend", "must be cld2 or fasttext, not '" + backend + "'");
        }
        double min_score = p.get_float("min_score");
        if (!(min_score >= 0.0 && min_score <= 1.0))
          return p.error("min_score", "must be in [0, 1]");
        int64_t max_chars = p.get_int("max_chars");
        if (max_chars < 0) return p.error("max_chars", "must be 0 or more");
        std::vector<std::string> languages;
        for (std::string code : p.get_string_list("languages")) {
          if (code.rfind("__label__", 0) == 0) code.erase(0, 9);
          if (code.empty()) return p.error("languages", "holds an empty language code");
          languages.push_back(std::move(code));
        }
        if (p.get_string("language_field").empty()) {
          return p.error("language_field", "must not be empty");
        }
        if (p.get_string("score_field").empty()) return p.error("score_field", "must not be empty");
        return std::unique_ptr<Stage>(new LanguageIdStage(
            std::move(model), min_score, max_chars, std::move(languages), p.get_bool("annotate"),
            p.get_string("language_field"), p.get_string("score_field"), context));
      },
  };
}

}  // namespace winnow
