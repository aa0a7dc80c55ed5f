#pragma once
// Splitting large Parquet files into shards of consecutive row groups, so that one file is read
// by several workers (and ranks) at once, each range with its own outputs and completion marker.
// The ranges are decided from the file's footer alone (each row group's rows and compressed
// bytes), never from threads or ranks, so that the outputs are the same whatever runs them.
//
// Row groups are taken in order into a range until it holds at least `split_bytes` of compressed
// column data; a last range smaller than that joins the one before. A file with less than two
// ranges' worth stays one shard, named as it always was. A file whose footer cannot be read
// (truncated, corrupt, not Parquet), which has no `text_field` column or whose text is not a
// string, stays one shard too: reading it makes its one error record, as for any file.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "io/input_files.h"

namespace winnow {

struct RowGroupSize {
  uint64_t rows = 0;
  uint64_t bytes = 0;  // compressed, all columns
};

// The ranges of row groups of the given sizes; empty when the file stays whole.
std::vector<RowRange> row_group_ranges(const std::vector<RowGroupSize>& groups,
                                       uint64_t split_bytes);

// `inputs` with every file `is_parquet` says is Parquet replaced by its ranges (in place, so
// the shards stay in path order and a range's shard index grows with its rows). A range's size
// is its row groups' compressed bytes. Every shard's key_shard is its file's index in `inputs`,
// so document keys are those of an unsplit run. `split_bytes` 0: nothing is split.
Result<std::vector<InputFile>> split_parquet_inputs(
    const std::vector<InputFile>& inputs, const std::function<bool(const InputFile&)>& is_parquet,
    const std::string& text_field, uint64_t split_bytes);

}  // namespace winnow
