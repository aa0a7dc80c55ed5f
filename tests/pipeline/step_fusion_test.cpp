// plan_fusion: which consecutive stages run as one executor step.
#include "pipeline/step_fusion.h"

#include <gtest/gtest.h>

namespace winnow::testing {
namespace {

FusionCandidate cpu(const std::string& name) { return {name, StageResources{}, 0, false}; }

std::vector<std::string> names(const std::vector<StageGroup>& groups) {
  std::vector<std::string> out;
  for (const auto& g : groups) out.push_back(g.name);
  return out;
}

TEST(StepFusion, ConsecutiveCpuStagesFuseIntoOneStep) {
  auto groups = plan_fusion({cpu("a"), cpu("b"), cpu("c")}, true);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].first, 0u);
  EXPECT_EQ(groups[0].count, 3u);
  EXPECT_TRUE(groups[0].fused());
  EXPECT_EQ(groups[0].name, "fused(a..c)");
}

TEST(StepFusion, OffMeansEveryStageAlone) {
  auto groups = plan_fusion({cpu("a"), cpu("b"), cpu("c")}, false);
  EXPECT_EQ(names(groups), (std::vector<std::string>{"a", "b", "c"}));
  for (size_t i = 0; i < groups.size(); ++i) {
    EXPECT_EQ(groups[i].first, i);
    EXPECT_FALSE(groups[i].fused());
  }
}

TEST(StepFusion, GpuStagesGlobalStepsPinsAndWideWorkersBreakGroups) {
  FusionCandidate gpu = cpu("embed");
  gpu.resources.gpus = 0.5;
  FusionCandidate dedup = cpu("dedup");
  dedup.global = true;
  FusionCandidate pinned = cpu("pinned");
  pinned.pinned = 2;
  FusionCandidate wide = cpu("wide");
  wide.resources.cpus = 4;
  auto groups = plan_fusion({cpu("a"), cpu("b"), gpu, cpu("c"), cpu("d"), cpu("e"), dedup, cpu("f"),
                             pinned, cpu("g"), cpu("h"), wide, cpu("i")},
                            true);
  EXPECT_EQ(names(groups), (std::vector<std::string>{"fused(a..b)", "embed", "fused(c..e)", "dedup",
                                                     "f", "pinned", "fused(g..h)", "wide", "i"}));
  // The groups cover every stage once, in order.
  size_t next = 0;
  for (const auto& g : groups) {
    EXPECT_EQ(g.first, next);
    next += g.count;
  }
  EXPECT_EQ(next, 13u);
}

TEST(StepFusion, AGpuStageThatFellBackToTheCpuFuses) {
  // resolve_stage_resources gives a fallen-back stage no GPU: it is an ordinary CPU stage.
  FusionCandidate fallback = cpu("quality");
  fallback.resources.cpu_fallback = true;
  EXPECT_TRUE(fusable(fallback));
  EXPECT_EQ(plan_fusion({cpu("a"), fallback}, true).size(), 1u);
}

TEST(StepFusion, NoStagesNoGroups) { EXPECT_TRUE(plan_fusion({}, true).empty()); }

}  // namespace
}  // namespace winnow::testing
