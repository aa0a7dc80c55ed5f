#include "core/reason_table.h"

#include <limits>
#include <stdexcept>

namespace winnow {

ReasonTable::ReasonTable() { reasons_.push_back({"", "kept", -1, RowOutcome::kDropped}); }

ReasonId ReasonTable::add(const std::string& stage, int stage_index, const std::string& reason,
                          RowOutcome outcome) {
  for (size_t i = 1; i < reasons_.size(); ++i) {
    if (reasons_[i].stage == stage && reasons_[i].reason == reason) {
      if (reasons_[i].outcome != outcome) {
        throw std::logic_error("reason " + reasons_[i].qualified() + " declared twice");
      }
      return static_cast<ReasonId>(i);
    }
  }
  if (reasons_.size() > std::numeric_limits<ReasonId>::max()) {
    throw std::length_error("too many drop reasons in one pipeline");
  }
  reasons_.push_back({stage, reason, stage_index, outcome});
  return static_cast<ReasonId>(reasons_.size() - 1);
}

}  // namespace winnow
