#pragma once
// Stage: one step of a pipeline. A stage is built once from its parameters and then called
// concurrently by its workers, each with its own batch, so process() must be thread-safe
// (keep per-call scratch on the stack or thread_local).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "core/global_step.h"
#include "core/item_kind.h"
#include "core/reason_table.h"
#include "core/stage_params.h"
#include "core/status.h"

namespace winnow {

class Stage {
 public:
  virtual ~Stage() = default;
  // Documents already dropped by an earlier stage must be left alone.
  virtual Status process(DocBatch& batch) = 0;
  // Called once on each new worker's thread before its first batch (load a model onto a
  // device, warm a cache). Its time is measured apart as setup time; while it runs the worker
  // counts as "starting" and the autoscaler never takes it away.
  virtual Status setup_worker() { return Status::ok(); }

  // Non-null for a stage that needs an identify pass over the whole input first (see
  // global_step.h); its process() then applies what that pass decided.
  virtual GlobalStep* global_step() { return nullptr; }
};

// What one worker of a stage needs. The executor is given a budget of CPU threads and GPUs and
// never runs more than that at once; the autoscaler only plans worker counts that fit it.
struct StageResources {
  int cpus = 1;     // CPU threads one worker keeps busy
  double gpus = 0;  // 0; a fraction (several workers share one GPU); or whole GPUs (exclusive)
  // With no GPU present, a stage that needs one fails the run before it starts, unless it can
  // run on the CPU (then it is given no GPU: StageContext::gpus() says which).
  bool cpu_fallback = false;
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
  // The GPUs this run may use (0 on a machine without one): a stage with a CPU fallback picks
  // its implementation from it.
  int gpus() const { return gpus_; }
  void set_gpus(int gpus) { gpus_ = gpus; }
  int stage_index() const { return stage_index_; }
  // Declares a drop reason this stage can produce; reasons are reported as "stage/reason".
  ReasonId declare_reason(const std::string& reason) {
    return reasons_.add(stage_name_, stage_index_, reason);
  }
  // For a stage that turns one item into several (core/row_builder.h): the state of a parent
  // replaced by its children, and the children's origin.
  ReasonId declare_fan_out(const std::string& name) {
    return reasons_.add(stage_name_, stage_index_, name, RowOutcome::kFannedOut);
  }
  // For a stage that merges several items into one: the state of the merged items, and the
  // new item's origin.
  ReasonId declare_fan_in(const std::string& name) {
    return reasons_.add(stage_name_, stage_index_, name, RowOutcome::kMerged);
  }
  // For a stage that can fail on one item without failing as a whole (a remote call): the
  // error's kind. Under on_error: skip (skip_errors()) the stage marks the row with it and its
  // message (mark_row_error); under fail it returns the error, which ends the run.
  ReasonId declare_error(const std::string& name) {
    return reasons_.add(stage_name_, stage_index_, name, RowOutcome::kError);
  }
  // The run's on_error policy: false (fail, the default) or true (skip).
  bool skip_errors() const { return skip_errors_; }
  void set_skip_errors(bool skip) { skip_errors_ = skip; }

 private:
  ReasonTable& reasons_;
  std::string stage_name_;
  int stage_index_;
  uint64_t seed_;
  int gpus_ = 0;
  bool skip_errors_ = false;
};

// Marks row `row` of `batch` as an error of kind `error` (declared with declare_error), with
// `message` in its kRowErrorField annotation, written to errors/ with the row's id.
void mark_row_error(DocBatch& batch, size_t row, ReasonId error, std::string_view message);

// The fields of the input record a stage reads (through DocBatch::record, by name), so that a
// pass can ask a columnar input (Parquet) for only the columns its stages read. A stage that
// does not declare them may read any field: the default keeps every column.
struct RecordFields {
  bool any = true;
  std::vector<std::string> names;  // when !any: the fields by name ("a.b" as the stage gives it)

  static RecordFields all() { return {}; }
  static RecordFields none() { return {false, {}}; }
  // The non-empty names of `names` (an unset optional field reads nothing).
  static RecordFields of(std::vector<std::string> names);
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
  StageResources resources;  // per worker; default one CPU thread, no GPU
  // When set, the resources follow the stage's parameters (a model stage with `device: cuda`
  // declares a GPU share); `resources` is then what the reference shows for the defaults.
  std::function<StageResources(const StageParams&)> resources_for;
  // The kinds of item it takes, and the kind it gives (none: the kind it took). A pipeline that
  // hands a stage a kind it does not take is refused when it is loaded, naming both stages.
  ItemKinds takes = ItemKind::kDocument;
  std::optional<ItemKind> gives;
  // The record fields it reads with these parameters (RecordFields); null: any field.
  std::function<RecordFields(const StageParams&)> record_fields;
};

class StageRegistry {
 public:
  void add(StageSpec spec);
  // Widens what a registered stage takes (builtin_stages.cpp: text readers take images, whose
  // text is their caption).
  void add_takes(const std::string& name, ItemKinds kinds);
  // Declares that a registered stage reads no field of the input record (only its text, id,
  // annotations or payload): builtin_stages.cpp, after checking each.
  void set_reads_no_record_fields(const std::string& name);
  const StageSpec* find(const std::string& name) const;
  std::vector<const StageSpec*> all() const;  // sorted by name

 private:
  std::vector<StageSpec> specs_;
};

}  // namespace winnow
