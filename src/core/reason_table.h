#pragma once
// ReasonTable: the drop reasons a pipeline can produce, each owned by one stage. Built once
// while the pipeline is assembled, read-only (and so thread-safe) while it runs.
#include <string>
#include <vector>

#include "core/doc_batch.h"

namespace winnow {

struct DropReason {
  std::string stage;    // stage instance name
  std::string reason;   // stable reason name, e.g. "too_short"
  int stage_index = 0;  // position in the chain; earlier stages drop first
  std::string qualified() const { return stage + "/" + reason; }
};

class ReasonTable {
 public:
  ReasonTable();
  // Returns the id of (stage, reason), adding it when new.
  ReasonId add(const std::string& stage, int stage_index, const std::string& reason);
  const DropReason& at(ReasonId id) const { return reasons_[id]; }
  size_t size() const { return reasons_.size(); }  // including the kept slot 0

 private:
  std::vector<DropReason> reasons_;
};

}  // namespace winnow
