#include "io/duckdb_session.h"

#include "io/duckdb_library.h"

namespace winnow {

std::string duckdb_message(const char* error) {
  return error && *error ? std::string(error) : std::string("unknown DuckDB error");
}

std::string sql_string(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string sql_identifier(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

Result<std::unique_ptr<DuckdbSession>> DuckdbSession::open() {
  if (Status loaded = load_duckdb(); !loaded.is_ok()) return loaded;
  std::unique_ptr<DuckdbSession> session(new DuckdbSession);
  duckdb_config config;
  if (duckdb_create_config(&config) == DuckDBError) return Status::error("DuckDB failed to start");
  duckdb_set_config(config, "threads", "1");
  duckdb_set_config(config, "autoinstall_known_extensions", "false");
  char* error = nullptr;
  bool opened = duckdb_open_ext(nullptr, &session->database_, config, &error) == DuckDBSuccess;
  duckdb_destroy_config(&config);
  if (!opened || duckdb_connect(session->database_, &session->connection_) == DuckDBError) {
    Status status = Status::errorf("DuckDB failed to start: {}", duckdb_message(error));
    if (error) duckdb_free(error);
    return status;
  }
  return session;
}

DuckdbSession::~DuckdbSession() {
  if (connection_) duckdb_disconnect(&connection_);
  if (database_) duckdb_close(&database_);
}

Status DuckdbSession::exec(const std::string& sql) const {
  duckdb_result result;
  Status status = Status::ok();
  if (duckdb_query(connection_, sql.c_str(), &result) == DuckDBError) {
    status = Status::error(duckdb_message(duckdb_result_error(&result)));
  }
  duckdb_destroy_result(&result);
  return status;
}

Result<std::vector<TableColumn>> DuckdbSession::describe(const std::string& relation) const {
  duckdb_result result;
  std::string sql = "DESCRIBE SELECT * FROM " + relation;
  if (duckdb_query(connection_, sql.c_str(), &result) == DuckDBError) {
    Status status = Status::error(duckdb_message(duckdb_result_error(&result)));
    duckdb_destroy_result(&result);
    return status;
  }
  // DESCRIBE's first two columns: column_name, column_type.
  std::vector<TableColumn> columns;
  for (idx_t row = 0, rows = duckdb_row_count(&result); row < rows; ++row) {
    char* name = duckdb_value_varchar(&result, 0, row);
    char* type = duckdb_value_varchar(&result, 1, row);
    columns.push_back({name ? name : "", type ? type : ""});
    duckdb_free(name);
    duckdb_free(type);
  }
  duckdb_destroy_result(&result);
  return columns;
}

}  // namespace winnow
