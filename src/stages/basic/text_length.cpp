// text_length: keeps documents whose text length, in Unicode code points (as Python's len()
// counts it, so NeMo configs carry over), lies within [min_chars, max_chars].
#include <limits>

#include "core/utf8.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

class TextLengthStage final : public Stage {
 public:
  TextLengthStage(int64_t min_chars, int64_t max_chars, bool annotate, StageContext& context)
      : min_(min_chars),
        max_(max_chars),
        annotate_(annotate),
        column_(context.stage_name()),
        too_short_(context.declare_reason("too_short")),
        too_long_(context.declare_reason("too_long")) {}

  Status process(DocBatch& batch) override {
    AnnotationColumn* column =
        annotate_ ? &batch.annotation(column_, AnnotationType::kInt) : nullptr;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      auto length = static_cast<int64_t>(count_code_points(batch.text(i)));
      if (column) column->set_int(i, length);
      if (length < min_) {
        batch.drop(i, too_short_, static_cast<double>(length));
      } else if (length > max_) {
        batch.drop(i, too_long_, static_cast<double>(length));
      }
    }
    return Status::ok();
  }

 private:
  int64_t min_, max_;
  bool annotate_;
  std::string column_;
  ReasonId too_short_, too_long_;
};

}  // namespace

StageSpec text_length_spec() {
  return {
      "text_length",
      "Keeps documents whose text has between min_chars and max_chars code points.",
      {
          {"min_chars", ParamType::kInt, "0", "fewest code points kept"},
          {"max_chars", ParamType::kInt, "", "most code points kept (default: no limit)"},
          {"annotate", ParamType::kBool, "false",
           "record the length in a field named after the stage"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        int64_t min = p.get_int("min_chars");
        int64_t max =
            p.has("max_chars") ? p.get_int("max_chars") : std::numeric_limits<int64_t>::max();
        if (min < 0) return p.error("min_chars", "must be 0 or more");
        if (max < min) return p.error("max_chars", "must be at least min_chars");
        return std::unique_ptr<Stage>(
            new TextLengthStage(min, max, p.get_bool("annotate"), context));
      },
  };
}

}  // namespace winnow
