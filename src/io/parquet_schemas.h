#pragma once
// The columns of a run's Parquet inputs, checked before anything is read. Files whose columns
// differ (a name, a type or the order) make the run fail at setup, naming both files and the
// first difference, unless `input.union_schemas` is true: then every file is read as the union
// of all their columns (in the order they first appear; a column a file lacks is null in its
// rows), and Parquet output has that one schema for every shard. A column with two different
// types is an error either way. Only the footers are read. A file DuckDB cannot describe is left
// out here: reading it makes the error record that names its damage.
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "io/table_column.h"

namespace winnow {

// nullopt when `files` is empty or none could be described.
Result<std::optional<TableColumns>> shared_parquet_columns(const std::vector<std::string>& files,
                                                           bool union_schemas);

// For Parquet output: an error naming the first of `columns` whose type winnow cannot write
// back (io/json_transport_type.h: a struct with unnamed fields, as DuckDB reads a UNION) and
// the first of `files` that has it; ok when every column can be written.
Status check_parquet_output_columns(const TableColumns& columns,
                                    const std::vector<std::string>& files);

}  // namespace winnow
