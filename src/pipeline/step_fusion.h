#pragma once
// Stage fusion: which consecutive stages run as one executor step. A fused step's worker takes
// a batch and runs every member stage on it in order (timing each apart), so a batch crosses
// one thread instead of one per stage: no queue hand-off, futex wake-up or cross-core cache
// miss on the batch's text and segment cache between members. A pure function of what each
// stage needs, unit-tested without threads (tests/pipeline/step_fusion_test.cpp).
//
// The candidates are the executor's steps: `read` (parse), the stages, `write` (encode). A step
// fuses with its neighbours when it is an ordinary CPU step: one CPU thread per worker, no GPU
// share, no global step (dedup's identify/remove split), and no `workers:` pin (a pin asks for
// that many workers on that stage alone). Anything else breaks a group and runs alone.
#include <cstddef>
#include <string>
#include <vector>

#include "core/stage.h"

namespace winnow {

struct FusionCandidate {
  std::string name;
  StageResources resources;  // one worker's, after a GPU fallback
  int pinned = 0;            // > 0: `workers: N` (never fused)
  bool global = false;
};

// Stages [first, first + count) run as one step; count == 1 is a stage on its own.
struct StageGroup {
  size_t first = 0;
  size_t count = 1;
  std::string name;  // the step's name: the stage's own, or "fused(first..last)"
  bool fused() const { return count > 1; }
};

bool fusable(const FusionCandidate& stage);

// Covers every stage, in order. With `fuse` false every stage is its own step.
std::vector<StageGroup> plan_fusion(const std::vector<FusionCandidate>& stages, bool fuse);

}  // namespace winnow
