#pragma once
// TaskMatchCounter: NeMo Curator's max_matches. A task n-gram found more than `max_matches`
// times in the corpus is too common to mean contamination (a stock phrase, a licence line), and
// is not removed. That needs the whole corpus first, so with max_matches > 0 `decontaminate` is
// a global step (core/global_step.h): an identify pass counts every task n-gram's matches — as
// NeMo's find pass does: the leftmost match, then the search goes on after it, no margin —
// summed over threads and ranks; then the writing pass splits with the too common ones left out.
// The result folder holds them (`too_common.txt`), so a re-run reuses it.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "core/global_step.h"
#include "stages/decontaminate/task_ngrams.h"

namespace winnow {

class TaskMatchCounter final : public GlobalStep {
 public:
  TaskMatchCounter(std::shared_ptr<const TaskNgrams> tasks, uint64_t max_matches)
      : tasks_(std::move(tasks)), max_matches_(max_matches) {}

  Status begin_identify(const GlobalStepContext& context) override;
  Status observe(const DocBatch& batch) override;
  Status finish_identify() override;
  Status load_result(const std::string& result_dir) override;
  std::string summary_json() const override;
  std::string summary_text() const override;

  // The task n-grams found more than max_matches times (read-only after the identify pass).
  const std::unordered_set<uint64_t>& too_common() const { return too_common_; }

 private:
  std::shared_ptr<const TaskNgrams> tasks_;
  uint64_t max_matches_;
  GlobalStepContext context_;
  std::mutex mutex_;
  std::unordered_map<uint64_t, uint64_t> counts_;  // by fingerprint, this rank's
  std::unordered_set<uint64_t> too_common_;
  uint64_t found_ = 0;  // distinct task n-grams found in the corpus
};

}  // namespace winnow
