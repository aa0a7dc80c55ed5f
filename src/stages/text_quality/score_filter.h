#pragma once
// ScoreFilterStage: the shape of every heuristic filter — a score per document and a keep
// range — as a stage. The document's splits come from the batch's shared DocSegments cache, so
// the filters of a chain reuse one segmentation. With `annotate: true` the score is recorded in
// a field named after the stage instance (for kept and dropped documents alike); a dropped
// document carries the filter's reason and its score.
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/stage.h"
#include "text/doc_segments.h"

namespace winnow {

struct ScoreRule {
  std::function<double(DocSegments&)> score;
  double min = -std::numeric_limits<double>::infinity();  // kept when min <= score <= max
  double max = std::numeric_limits<double>::infinity();
};

using ScoreRuleFactory = std::function<Result<ScoreRule>(const StageParams&)>;

// A StageSpec for a one-score filter. `params` gets the `annotate` parameter added; `reason` is
// the stable drop reason (NeMo's filter name where it has one).
StageSpec score_filter_spec(std::string name, std::string summary, std::string reason,
                            std::vector<ParamSpec> params, ScoreRuleFactory make_rule);

// Checks shared by the factories; errors name the key.
Status check_ratio(const StageParams& p, const std::string& key);
Status check_non_negative(const StageParams& p, const std::string& key);

// NeMo's word splitter for a language: jieba for "zh", MeCab for "ja", a white-space split for
// every other; here ICU's dictionary segmentation stands in for both jieba and MeCab.
inline WordSplit word_split_for(const std::string& lang) {
  std::string_view l = lang;
  return (l.starts_with("zh") || l.starts_with("ja")) ? WordSplit::kIcu : WordSplit::kWhitespace;
}
inline ParamSpec lang_param() {
  return {"lang", ParamType::kString, "en",
          "language of the text: zh and ja are segmented with ICU's dictionaries (NeMo: jieba, "
          "MeCab), every other language is split on white space"};
}

// A ratio as NeMo computes it: over an empty denominator it scores 1.0 (filters.md).
inline double ratio_or_one(double part, double whole) { return whole > 0 ? part / whole : 1.0; }

}  // namespace winnow
