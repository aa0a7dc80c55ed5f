#include "pipeline/step_fusion.h"

#include <fmt/format.h>

namespace winnow {

bool fusable(const FusionCandidate& stage) {
  return stage.resources.cpus == 1 && stage.resources.gpus == 0 && !stage.pinned && !stage.global;
}

std::vector<StageGroup> plan_fusion(const std::vector<FusionCandidate>& stages, bool fuse) {
  std::vector<StageGroup> groups;
  for (size_t i = 0; i < stages.size();) {
    size_t end = i + 1;
    if (fuse && fusable(stages[i])) {
      while (end < stages.size() && fusable(stages[end])) ++end;
    }
    StageGroup group{i, end - i, stages[i].name};
    if (group.fused())
      group.name = fmt::format("fused({}..{})", stages[i].name, stages[end - 1].name);
    groups.push_back(std::move(group));
    i = end;
  }
  return groups;
}

}  // namespace winnow
