#pragma once
// DuckdbSession: an in-memory DuckDB database and connection for the io files that read or
// write Parquet through DuckDB's C API (the only ones that include duckdb.h). DuckDB runs with
// one thread, on the worker that calls it, so it stays inside the run's CPU budget, and never
// installs extensions from the network (parquet and json are built into the library).
#include <duckdb.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "io/table_column.h"

namespace winnow {

class DuckdbSession {
 public:
  static Result<std::unique_ptr<DuckdbSession>> open();
  ~DuckdbSession();
  DuckdbSession(const DuckdbSession&) = delete;
  DuckdbSession& operator=(const DuckdbSession&) = delete;

  duckdb_connection connection() const { return connection_; }
  // Runs a statement; the error is DuckDB's message.
  Status exec(const std::string& sql) const;
  // The columns of a relation ("read_parquet('x')"), in order.
  Result<std::vector<TableColumn>> describe(const std::string& relation) const;

 private:
  DuckdbSession() = default;
  duckdb_database database_ = nullptr;
  duckdb_connection connection_ = nullptr;
};

// DuckDB's message for a failed call, or a fallback when it gave none.
std::string duckdb_message(const char* error);

// SQL literals and identifiers for names that come from the user or a file.
std::string sql_string(std::string_view s);
std::string sql_identifier(std::string_view s);

}  // namespace winnow
