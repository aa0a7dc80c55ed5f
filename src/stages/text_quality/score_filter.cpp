#include "stages/text_quality/score_filter.h"

#include <cmath>

namespace winnow {

namespace {

class ScoreFilterStage final : public Stage {
 public:
  ScoreFilterStage(ScoreRule rule, bool annotate, const std::string& reason, StageContext& context)
      : rule_(std::move(rule)),
        annotate_(annotate),
        column_(context.stage_name()),
        reason_(context.declare_reason(reason)) {}

  Status process(DocBatch& batch) override {
    AnnotationColumn* column =
        annotate_ ? &batch.annotation(column_, AnnotationType::kFloat) : nullptr;
    DocSegmentsCache& cache = segment_cache(batch);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      double score = rule_.score(cache.at(batch, i));
      if (column) column->set_float(i, score);
      // NaN is never kept (as Python's comparisons with NaN are all false).
      if (!(score >= rule_.min && score <= rule_.max)) batch.drop(i, reason_, score);
    }
    return Status::ok();
  }

 private:
  ScoreRule rule_;
  bool annotate_;
  std::string column_;
  ReasonId reason_;
};

}  // namespace

StageSpec score_filter_spec(std::string name, std::string summary, std::string reason,
                            std::vector<ParamSpec> params, ScoreRuleFactory make_rule) {
  params.push_back(
      {"annotate", ParamType::kBool, "false", "record the score in a field named after the stage"});
  return {std::move(name), std::move(summary), std::move(params),
          [reason, make_rule](const StageParams& p,
                              StageContext& context) -> Result<std::unique_ptr<Stage>> {
            auto rule = make_rule(p);
            if (!rule.is_ok()) return rule.status();
            return std::unique_ptr<Stage>(new ScoreFilterStage(
                std::move(rule).value(), p.get_bool("annotate"), reason, context));
          }};
}

Status check_ratio(const StageParams& p, const std::string& key) {
  double v = p.get_float(key);
  if (!(v >= 0.0 && v <= 1.0)) return p.error(key, "must be between 0 and 1");
  return Status::ok();
}

Status check_non_negative(const StageParams& p, const std::string& key) {
  double v = p.get_float(key);
  if (!(v >= 0.0)) return p.error(key, "must be 0 or more");
  return Status::ok();
}

}  // namespace winnow
