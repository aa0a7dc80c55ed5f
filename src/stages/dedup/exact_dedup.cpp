// exact_dedup: drops documents whose text (optionally lower-cased, whitespace collapsed) is
// identical to an earlier one's; the document with the smallest key (first in input order)
// of each group is kept. Runs as a global step: identify pass, then removal.
#include "dedup/exact_keyer.h"
#include "stages/builtin_stages.h"
#include "stages/dedup/dedup_stage.h"

namespace winnow {

StageSpec exact_dedup_spec() {
  std::vector<ParamSpec> params = {
      {"normalize", ParamType::kBool, "false",
       "hash the text lower-cased with whitespace collapsed (not the raw text)"},
  };
  for (auto& p : dedup_common_params()) params.push_back(std::move(p));
  return {
      "exact_dedup",
      "Drops exact duplicate texts (XXH3-128), keeping the first document (smallest key) of "
      "each group. Two passes: identify, then remove (reason exact_duplicate).",
      std::move(params),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        auto options = dedup_common_options(p, "exact");
        if (!options.is_ok()) return options.status();
        auto step = std::make_unique<DedupStep>(
            std::make_unique<ExactKeyer>(p.get_bool("normalize")), std::move(options).value());
        return std::unique_ptr<Stage>(new DedupStage(std::move(step), "exact_duplicate", context));
      },
  };
}

}  // namespace winnow
