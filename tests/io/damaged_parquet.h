#pragma once
// A Parquet file with damaged pages, for the tests of how reading stops (whole files and ranges
// of row groups): DuckDB writes 100,000 rows in 5 row groups of 20,000 (zstd), and compressed
// page data is garbled a third of the way in, where zstd cannot decode it; the footer is intact.
#include <string>

#include "duckdb_sql.h"
#include "test_support.h"

namespace winnow::testing {

// Writes good.parquet and damaged.parquet in `dir`; returns the damaged file's path.
inline std::string write_damaged_parquet(DuckDbSql& db, const TempDir& dir) {
  std::string good = dir.file("good.parquet");
  db.exec(
      "COPY (SELECT 'text number ' || i || repeat('x', (i % 50)::INTEGER) AS text, i AS n "
      "FROM range(100000) t(i)) TO '" +
      good + "' (FORMAT parquet, ROW_GROUP_SIZE 20000, COMPRESSION zstd)");
  std::string bytes = read_file(good);
  for (size_t i = bytes.size() / 3; i < bytes.size() / 3 + 2000; ++i) bytes[i] ^= 0x5a;
  std::string damaged = dir.file("damaged.parquet");
  write_file(damaged, bytes);
  return damaged;
}

}  // namespace winnow::testing
