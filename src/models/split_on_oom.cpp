#include "models/split_on_oom.h"

#include "models/onnx_session.h"

namespace winnow {

Status run_split_on_oom(std::span<const size_t> rows,
                        const std::function<Status(std::span<const size_t>)>& run,
                        const std::function<Status(size_t row, const Status&)>& describe_row) {
  Status status = run(rows);
  if (status.is_ok() || !OnnxSession::is_out_of_memory(status)) return status;
  if (rows.size() == 1) return describe_row(rows.front(), status);
  // Halves, not a size found by search: the memory a batch needs grows with its rows, so each
  // halving at least halves the part of the need that made it fail, and a batch sized near the
  // limit costs one failed run, not many.
  const size_t half = rows.size() / 2;
  WINNOW_RETURN_IF_ERROR(run_split_on_oom(rows.first(half), run, describe_row));
  return run_split_on_oom(rows.subspan(half), run, describe_row);
}

}  // namespace winnow
