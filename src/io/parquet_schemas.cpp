#include "io/parquet_schemas.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "io/duckdb_session.h"
#include "io/json_transport_type.h"

namespace winnow {

namespace {

std::string listed(const TableColumns& columns) {
  std::string out;
  for (const TableColumn& c : columns) out += (out.empty() ? "" : ", ") + c.name + " " + c.type;
  return out;
}

}  // namespace

Result<std::optional<TableColumns>> shared_parquet_columns(const std::vector<std::string>& files,
                                                           bool union_schemas) {
  if (files.empty()) return std::optional<TableColumns>();
  auto session = DuckdbSession::open();
  if (!session.is_ok()) return session.status();
  std::optional<TableColumns> shared;
  std::string first_file;
  std::map<std::string, std::string> file_of_column;  // where each column was first seen
  for (const std::string& file : files) {
    auto described = (*session)->describe(fmt::format("read_parquet({})", sql_string(file)));
    if (!described.is_ok()) continue;
    const TableColumns& columns = *described;
    if (!shared) {
      shared = columns;
      first_file = file;
      for (const TableColumn& c : columns) file_of_column[c.name] = file;
      continue;
    }
    if (!union_schemas) {
      if (columns == *shared) continue;
      return Status::errorf(
          "Parquet inputs with different columns: {} has ({}), {} has ({}); set "
          "input.union_schemas: true to read them all as the union of their columns",
          first_file, listed(*shared), file, listed(columns));
    }
    for (const TableColumn& c : columns) {
      auto seen = std::find_if(shared->begin(), shared->end(),
                               [&](const TableColumn& s) { return s.name == c.name; });
      if (seen == shared->end()) {
        shared->push_back(c);
        file_of_column[c.name] = file;
      } else if (seen->type != c.type) {
        return Status::errorf(
            "Parquet column '{}' is {} in {} and {} in {}: a union needs one type", c.name,
            seen->type, file_of_column[c.name], c.type, file);
      }
    }
  }
  return shared;
}

Status check_parquet_output_columns(const TableColumns& columns,
                                    const std::vector<std::string>& files) {
  for (const TableColumn& c : columns) {
    if (json_transport_type(c.type)) continue;
    // Only now are the files described again, to name one that has the column.
    std::string file = "a Parquet input";
    if (auto session = DuckdbSession::open(); session.is_ok()) {
      for (const std::string& f : files) {
        auto described = (*session)->describe(fmt::format("read_parquet({})", sql_string(f)));
        if (described.is_ok() &&
            std::find(described->begin(), described->end(), c) != described->end()) {
          file = f;
          break;
        }
      }
    }
    return Status::errorf(
        "{}: column '{}' is {}, a type winnow cannot write back as Parquet (no type name gives "
        "back a struct with unnamed fields, which is how DuckDB reads a UNION column); use "
        "output.format: jsonl, or leave the column out of the file",
        file, c.name, c.type);
  }
  return Status::ok();
}

}  // namespace winnow
