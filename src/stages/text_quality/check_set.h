#pragma once
// CheckSet: the reasons and optional score columns of a stage that runs several checks in a
// fixed order (datatrove's filters): the first failing check names the drop reason; with
// `annotate: true` every metric is computed and recorded in a field "<stage>_<metric>" (two
// checks on one metric, such as a minimum and a maximum, share the field).
#include <string>
#include <vector>

#include "core/stage.h"

namespace winnow {

class CheckSet {
 public:
  explicit CheckSet(bool annotate) : annotate_(annotate) {}

  // Declares a check while the stage is built; returns its index.
  size_t add(StageContext& context, const std::string& reason, const std::string& metric) {
    checks_.push_back({context.declare_reason(reason), context.stage_name() + "_" + metric});
    return checks_.size() - 1;
  }
  bool annotate() const { return annotate_; }
  ReasonId reason(size_t check) const { return checks_[check].reason; }

  // Per batch (thread-safe: the columns live in the caller's batch).
  class Columns {
   public:
    void record(size_t check, size_t row, double value) {
      if (!columns_.empty()) columns_[check]->set_float(row, value);
    }

   private:
    friend class CheckSet;
    std::vector<AnnotationColumn*> columns_;
  };
  // One document's checks, run in chain order: each records its metric; the first that fails
  // names the drop reason. check() says whether to go on: always with annotate (every metric is
  // recorded), otherwise only until the first failure.
  class Verdict {
   public:
    Verdict(const CheckSet& set, Columns& columns, size_t row)
        : set_(set), columns_(columns), row_(row) {}
    bool check(size_t id, double value, bool ok) {
      columns_.record(id, row_, value);
      if (!ok && failed_ == kNone) {
        failed_ = id;
        failed_score_ = value;
      }
      return set_.annotate_ || failed_ == kNone;
    }
    void apply(DocBatch& batch) const {
      if (failed_ != kNone) batch.drop(row_, set_.reason(failed_), failed_score_);
    }

   private:
    static constexpr size_t kNone = static_cast<size_t>(-1);
    const CheckSet& set_;
    Columns& columns_;
    size_t row_;
    size_t failed_ = kNone;
    double failed_score_ = 0;
  };

  Columns columns(DocBatch& batch) const {
    Columns c;
    if (annotate_) {
      for (const auto& check : checks_)
        c.columns_.push_back(&batch.annotation(check.column, AnnotationType::kFloat));
    }
    return c;
  }

 private:
  struct Check {
    ReasonId reason;
    std::string column;
  };
  bool annotate_;
  std::vector<Check> checks_;
};

}  // namespace winnow
