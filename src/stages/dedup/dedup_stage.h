#pragma once
// DedupStage: the pipeline face of exact_dedup and fuzzy_dedup. Its identify pass is the
// DedupStep (dedup/dedup_step.h); its process() drops the documents that step marked, with
// the reason given and the group's component id in the annotation "<stage name>_component".
#include <memory>
#include <string>

#include "core/stage.h"
#include "dedup/dedup_step.h"

namespace winnow {

class DedupStage : public Stage {
 public:
  DedupStage(std::unique_ptr<DedupStep> step, const std::string& reason, StageContext& context)
      : step_(std::move(step)),
        reason_(context.declare_reason(reason)),
        column_(context.stage_name() + "_component") {}

  Status process(DocBatch& batch) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      step_->note_for_report(batch, i);
      if (const uint64_t* component = step_->removal(batch.key(i))) {
        batch.drop(i, reason_);
        batch.annotation(column_, AnnotationType::kInt)
            .set_int(i, static_cast<int64_t>(*component));
      }
    }
    return Status::ok();
  }
  GlobalStep* global_step() override { return step_.get(); }
  DedupStep& step() { return *step_; }

 private:
  std::unique_ptr<DedupStep> step_;
  ReasonId reason_;
  std::string column_;
};

// Parameters both dedup stages take (memory, survivor, table format), checked.
std::vector<ParamSpec> dedup_common_params();
Result<DedupStepOptions> dedup_common_options(const StageParams& p, const std::string& kind);

}  // namespace winnow
