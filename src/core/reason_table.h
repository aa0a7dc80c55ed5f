#pragma once
// ReasonTable: the ways a row can leave a pipeline before the output, each owned by one stage:
// dropped for a reason, replaced by its children (a fan-out: the entry is also the children's
// origin), or merged into a new row (a fan-in: also the new row's origin). Built once while the
// pipeline is assembled, read-only (and so thread-safe) while it runs.
#include <string>
#include <vector>

#include "core/doc_batch.h"

namespace winnow {

enum class RowOutcome : uint8_t { kDropped, kFannedOut, kMerged };

struct DropReason {
  std::string stage;    // stage instance name
  std::string reason;   // stable reason name, e.g. "too_short"
  int stage_index = 0;  // position in the chain; earlier stages drop first
  RowOutcome outcome = RowOutcome::kDropped;
  std::string qualified() const { return stage + "/" + reason; }
  bool dropped() const { return outcome == RowOutcome::kDropped; }
};

class ReasonTable {
 public:
  ReasonTable();
  // Returns the id of (stage, reason), adding it when new.
  ReasonId add(const std::string& stage, int stage_index, const std::string& reason,
              RowOutcome outcome = RowOutcome::kDropped);
  const DropReason& at(ReasonId id) const { return reasons_[id]; }
  size_t size() const { return reasons_.size(); }  // including the kept slot 0

 private:
  std::vector<DropReason> reasons_;
};

}  // namespace winnow
