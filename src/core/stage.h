#pragma once
// Stage: one step of a pipeline. A stage is built once from its parameters and then called
// concurrently by its workers, each with its own batch, so process() must be thread-safe
// (keep per-call scratch on the stack or thread_local).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "core/global_step.h"
#include "core/reason_table.h"
#include "core/stage_params.h"
#include "core/status.h"

namespace winnow {

class Stage {
 public:
  virtual ~Stage() = default;
  // Documents already dropped by an earlier stage must be left alone.
  virtual Status process(DocBatch& batch) = 0;
  // Non-null for a stage that needs an identify pass over the whole input first (see
  // global_step.h); its process() then applies what that pass decided.
  virtual GlobalStep* global_step() { return nullptr; }
};

// What a stage factory sees while the pipeline is assembled.
class StageContext {
 public:
  StageContext(ReasonTable& reasons, std::string stage_name, int stage_index, uint64_t seed)
      : reasons_(reasons),
        stage_name_(std::move(stage_name)),
        stage_index_(stage_index),
        seed_(seed) {}

  const std::string& stage_name() const { return stage_name_; }
  uint64_t seed() const { return seed_; }  // the pipeline seed
  // Declares a drop reason this stage can produce; reasons are reported as "stage/reason".
  ReasonId declare_reason(const std::string& reason) {
    return reasons_.add(stage_name_, stage_index_, reason);
  }

 private:
  ReasonTable& reasons_;
  std::string stage_name_;
  int stage_index_;
  uint64_t seed_;
};

// Builds a stage from checked parameters. Errors should come from StageParams::error, which
// names the file, the line, the stage and the key.
using StageFactory =
    std::function<Result<std::unique_ptr<Stage>>(const StageParams&, StageContext&)>;

struct StageSpec {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  StageFactory make;
};

class StageRegistry {
 public:
  void add(StageSpec spec);
  const StageSpec* find(const std::string& name) const;
  std::vector<const StageSpec*> all() const;  // sorted by name

 private:
  std::vector<StageSpec> specs_;
};

}  // namespace winnow
