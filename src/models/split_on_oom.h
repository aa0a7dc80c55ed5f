#pragma once
// Running a batch that may not fit in memory: when a run fails for lack of memory
// (OnnxSession::is_out_of_memory), the batch is split in half and each half run in turn,
// recursively, so a batch the memory model (or the token budget) sized too large still goes
// through, in smaller pieces, instead of failing the stage. Each row's result depends on that
// row alone, so the pieces give what the whole batch would have; the halves run in order, so a
// caller that appends results keeps the batch's order.
#include <cstddef>
#include <functional>
#include <span>

#include "core/status.h"

namespace winnow {

// Runs `run` on `rows` (indices the caller understands), splitting on out-of-memory failures.
// Any other failure is returned as it is. A single row that runs out of memory is an error:
// `describe_row(row, status)` gives its message (naming the model and what the row holds).
Status run_split_on_oom(std::span<const size_t> rows,
                        const std::function<Status(std::span<const size_t>)>& run,
                        const std::function<Status(size_t row, const Status&)>& describe_row);

}  // namespace winnow
