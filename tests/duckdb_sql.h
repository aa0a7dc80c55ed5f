#pragma once
// DuckDB as the tests' reference for Parquet: it writes the files winnow reads and says what
// their values are, so expected values never come from winnow itself.
#include <string>
#include <vector>

namespace winnow::testing {

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

 private:
  struct State;
  State* state_;
};

}  // namespace winnow::testing
