#pragma once
// ReasonTable: the ways a row can leave a pipeline before the output, each owned by one stage:
// dropped for a reason, replaced by its children (a fan-out: the entry is also the children's
// origin), merged into a new row (a fan-in: also the new row's origin), or an error (the stage
// could not judge the row, e.g. a remote endpoint failed: counted and written with the input's
// error records under on_error: skip, never silently kept or dropped). Built once while the
// pipeline is assembled, read-only (and so thread-safe) while it runs.
#include <string>
#include <string_view>
#include <vector>

#include "core/doc_batch.h"

namespace winnow {

enum class RowOutcome : uint8_t { kDropped, kFannedOut, kMerged, kError };

// The string annotation that carries a row error's message (what failed, naming the item).
inline constexpr std::string_view kRowErrorField = "winnow_error";

struct DropReason {
  std::string stage;    // stage instance name
  std::string reason;   // stable reason name, e.g. "too_short"
  int stage_index = 0;  // position in the chain; earlier stages drop first
  RowOutcome outcome = RowOutcome::kDropped;
  std::string qualified() const { return stage + "/" + reason; }
  bool dropped() const { return outcome == RowOutcome::kDropped; }
  bool error() const { return outcome == RowOutcome::kError; }
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
