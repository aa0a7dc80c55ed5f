#pragma once
// Runs one registered filter stage on single texts with `annotate: true` and reports what it
// decided: kept or the reason, the score recorded, and the score carried by a drop.
#include <cmath>
#include <map>
#include <string>

#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow::testing {

struct Outcome {
  bool kept = false;
  double score = std::nan("");  // the annotated score (the stage's field)
  std::string reason;           // "stage/reason" or "kept"
  std::string text;             // the text after the stage
};

inline const StageRegistry& all_stages() {
  static StageRegistry registry = [] {
    StageRegistry r;
    register_builtin_stages(r);
    return r;
  }();
  return registry;
}

inline Outcome run_filter(const std::string& stage,
                          std::map<std::string, StageParams::Value> params,
                          const std::string& text) {
  const StageSpec* spec = all_stages().find(stage);
  EXPECT_NE(spec, nullptr) << stage;
  if (!spec) return {};
  params["annotate"] = true;
  ReasonTable reasons;
  StageContext context(reasons, stage, 0, 42);
  auto built = build_stage(*spec, params, context);
  EXPECT_TRUE(built.is_ok()) << built.status().message();
  if (!built.is_ok()) return {};
  auto batch = make_text_batch({text});
  EXPECT_TRUE(built.value()->process(*batch).is_ok());
  Outcome out;
  out.kept = batch->kept(0);
  out.reason = reason_of(*batch, reasons, 0);
  out.text = std::string(batch->text(0));
  if (const AnnotationColumn* column = batch->find_annotation(stage)) {
    if (column->has(0)) out.score = column->float_at(0);
  }
  if (!out.kept) {
    double drop = batch->drop_score(0);
    EXPECT_TRUE((std::isnan(drop) && std::isnan(out.score)) || drop == out.score ||
                std::isnan(out.score))
        << "the drop carries the score";
  }
  return out;
}

// A text of `n` copies of `piece` joined by `sep`.
inline std::string repeat(const std::string& piece, int n, const std::string& sep = " ") {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i ? sep : "") + piece;
  return out;
}

}  // namespace winnow::testing
