#pragma once
// A table's column as DuckDB names its type ("VARCHAR", "STRUCT(a BIGINT)", "DOUBLE[]", ...):
// what Parquet inputs and outputs are described by.
#include <string>
#include <vector>

namespace winnow {

struct TableColumn {
  std::string name;
  std::string type;

  bool operator==(const TableColumn&) const = default;
};

using TableColumns = std::vector<TableColumn>;

}  // namespace winnow
