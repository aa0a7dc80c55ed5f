#pragma once
// DuckDB as the tests' reference for Parquet: it writes the files winnow reads and says what
// their values are, so expected values never come from winnow itself.
#include <string>
#include <vector>

namespace winnow::testing {

// DuckDB's relation for a Parquet file (or glob).
inline std::string read_parquet(const std::string& path) { return "read_parquet('" + path + "')"; }

// An in-memory DuckDB database. Every statement must succeed: a failure throws
// std::runtime_error with DuckDB's message (gtest reports it as the test's failure).
class DuckDbSql {
 public:
  DuckDbSql();
  ~DuckDbSql();
  DuckDbSql(const DuckDbSql&) = delete;
  DuckDbSql& operator=(const DuckDbSql&) = delete;

  void exec(const std::string& sql);
  // Every row of the result, each value as DuckDB's VARCHAR cast ("NULL" for a null).
  std::vector<std::vector<std::string>> rows(const std::string& sql);
  // The first column of the first row.
  std::string value(const std::string& sql);

  // A relation's columns ("read_parquet('f')", "(SELECT ...)"), each "name TYPE".
  std::vector<std::string> columns(const std::string& relation);
  // The same as read_json's `columns` literal: {'name': 'TYPE', ...}.
  std::string columns_literal(const std::string& relation);
  // How many rows two queries do not share, both ways, duplicates counted ("0": the same rows).
  std::string differences(const std::string& a, const std::string& b);

 private:
  struct State;
  State* state_;
};

}  // namespace winnow::testing
