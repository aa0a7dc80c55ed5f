#pragma once
// NeMo Curator's text classifiers as classify presets (`preset: quality` or NeMo's class name,
// `preset: QualityClassifier`), with NeMo's settings (nemo_curator/stages/text/classifiers/):
// the characters the text is cut to before tokenising (max_chars), the tokens the tokenizer
// truncates to (max_seq_length), the annotation names (label_field, float/int score fields) and,
// for the FineWeb-Edu regressors, NeMo's outputs: float score clamped to [0, 5], int score
// round(clamp(score, 0, 5)) (half to even, as torch.round), label high_quality when the raw score
// is at least 2.5, else low_quality. Label names come from the model folder's config.json
// (id2label), as NeMo reads them; the lists here (those of the models' config.json on the Hugging
// Face Hub) stand in when a folder's config.json has none.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/stage_params.h"

namespace winnow {

struct ClassifierPreset {
  std::string_view name;       // winnow's
  std::string_view nemo_name;  // NeMo's class
  size_t max_chars;            // 0: the whole text
  size_t max_tokens;
  std::string_view field;            // the label annotation
  std::string_view score_field;      // "": FIELD_score
  std::string_view int_score_field;  // regression only
  bool regression;
  std::vector<std::string> labels;  // when config.json has no id2label
};

inline const std::vector<ClassifierPreset>& classifier_presets() {
  static const std::vector<std::string> domains = {"Adult",
                                                   "Arts_and_Entertainment",
                                                   "Autos_and_Vehicles",
                                                   "Beauty_and_Fitness",
                                                   "Books_and_Literature",
                                                   "Business_and_Industrial",
                                                   "Computers_and_Electronics",
                                                   "Finance",
                                                   "Food_and_Drink",
                                                   "Games",
                                                   "Health",
                                                   "Hobbies_and_Leisure",
                                                   "Home_and_Garden",
                                                   "Internet_and_Telecom",
                                                   "Jobs_and_Education",
                                                   "Law_and_Government",
                                                   "News",
                                                   "Online_Communities",
                                                   "People_and_Society",
                                                   "Pets_and_Animals",
                                                   "Real_Estate",
                                                   "Science",
                                                   "Sensitive_Subjects",
                                                   "Shopping",
                                                   "Sports",
                                                   "Travel_and_Transportation"};
  static const std::vector<ClassifierPreset> presets = {
      // nvidia/quality-classifier-deberta
      {"quality",
       "QualityClassifier",
       6000,
       1024,
       "quality_pred",
       "",
       "",
       false,
       {"High", "Medium", "Low"}},
      // nvidia/domain-classifier, nvidia/multilingual-domain-classifier
      {"domain", "DomainClassifier", 2000, 512, "domain_pred", "", "", false, domains},
      {"multilingual_domain", "MultilingualDomainClassifier", 2000, 512, "multilingual_domain_pred",
       "", "", false, domains},
      // nvidia/content-type-classifier-deberta (labels from config.json)
      {"content_type", "ContentTypeClassifier", 6000, 1024, "content_pred", "", "", false, {}},
      // HuggingFaceFW/fineweb-edu-classifier and NeMo's two FineWeb-Edu annotators
      {"fineweb_edu",
       "FineWebEduClassifier",
       0,
       512,
       "fineweb-edu-score-label",
       "fineweb-edu-score-float",
       "fineweb-edu-score-int",
       true,
       {}},
      {"fineweb_mixtral_edu",
       "FineWebMixtralEduClassifier",
       0,
       512,
       "fineweb-mixtral-edu-score-label",
       "fineweb-mixtral-edu-score-float",
       "fineweb-mixtral-edu-score-int",
       true,
       {}},
      {"fineweb_nemotron_edu",
       "FineWebNemotronEduClassifier",
       0,
       512,
       "fineweb-nemotron-edu-score-label",
       "fineweb-nemotron-edu-score-float",
       "fineweb-nemotron-edu-score-int",
       true,
       {}},
  };
  return presets;
}

// The preset named `name` (winnow's or NeMo's name), or nullptr.
inline const ClassifierPreset* find_classifier_preset(std::string_view name) {
  for (const ClassifierPreset& preset : classifier_presets()) {
    if (name == preset.name || name == preset.nemo_name) return &preset;
  }
  return nullptr;
}

// Reads the `preset` parameter into `preset` (nullptr when empty); an unknown name is an error
// that lists the presets.
inline std::optional<Status> read_classifier_preset(const StageParams& p,
                                                    const ClassifierPreset*& preset) {
  preset = nullptr;
  const std::string& name = p.get_string("preset");
  if (name.empty()) return std::nullopt;
  preset = find_classifier_preset(name);
  if (preset != nullptr) return std::nullopt;
  std::string known;
  for (const auto& k : classifier_presets())
    known += (known.empty() ? "" : ", ") + std::string(k.name);
  return p.error("preset", "'" + name + "' is not a preset; the presets are " + known +
                               " (or their NeMo class names)");
}

}  // namespace winnow
