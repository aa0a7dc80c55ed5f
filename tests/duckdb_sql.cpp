#include "duckdb_sql.h"

#include <duckdb.h>

#include <stdexcept>

namespace winnow::testing {

struct DuckDbSql::State {
  duckdb_database database = nullptr;
  duckdb_connection connection = nullptr;
};

DuckDbSql::DuckDbSql() : state_(new State) {
  if (duckdb_open(nullptr, &state_->database) == DuckDBError ||
      duckdb_connect(state_->database, &state_->connection) == DuckDBError) {
    throw std::runtime_error("DuckDB failed to start");
  }
}

DuckDbSql::~DuckDbSql() {
  if (state_->connection) duckdb_disconnect(&state_->connection);
  if (state_->database) duckdb_close(&state_->database);
  delete state_;
}

void DuckDbSql::exec(const std::string& sql) { rows(sql); }

std::vector<std::vector<std::string>> DuckDbSql::rows(const std::string& sql) {
  duckdb_result result;
  if (duckdb_query(state_->connection, sql.c_str(), &result) == DuckDBError) {
    std::string error = duckdb_result_error(&result);
    duckdb_destroy_result(&result);
    throw std::runtime_error("DuckDB: " + error + "\nin: " + sql);
  }
  std::vector<std::vector<std::string>> out;
  idx_t columns = duckdb_column_count(&result);
  for (idx_t row = 0, n = duckdb_row_count(&result); row < n; ++row) {
    std::vector<std::string>& values = out.emplace_back();
    for (idx_t column = 0; column < columns; ++column) {
      char* value = duckdb_value_varchar(&result, column, row);
      values.emplace_back(value ? value : "NULL");
      duckdb_free(value);
    }
  }
  duckdb_destroy_result(&result);
  return out;
}

std::string DuckDbSql::value(const std::string& sql) {
  auto all = rows(sql);
  if (all.empty() || all[0].empty()) throw std::runtime_error("DuckDB: no value from " + sql);
  return all[0][0];
}

std::vector<std::string> DuckDbSql::columns(const std::string& relation) {
  std::vector<std::string> out;
  for (const auto& row : rows("DESCRIBE SELECT * FROM " + relation)) {
    out.push_back(row[0] + " " + row[1]);
  }
  return out;
}

std::string DuckDbSql::columns_literal(const std::string& relation) {
  auto quoted = [](const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
  };
  std::string out;
  for (const auto& row : rows("DESCRIBE SELECT * FROM " + relation)) {
    out += (out.empty() ? "" : ", ") + quoted(row[0]) + ": " + quoted(row[1]);
  }
  return "{" + out + "}";
}

std::string DuckDbSql::differences(const std::string& a, const std::string& b) {
  std::string left = "(SELECT * FROM (" + a + "))", right = "(SELECT * FROM (" + b + "))";
  return value("SELECT (SELECT count(*) FROM (" + left + " EXCEPT ALL " + right +
               ")) + (SELECT count(*) FROM (" + right + " EXCEPT ALL " + left + "))");
}

}  // namespace winnow::testing
