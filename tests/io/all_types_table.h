#pragma once
// A table with every column type the Parquet reader maps, for DuckDB to write in the Parquet
// tests (reading, writing, round trips through the binary).
#include <string>

#include "duckdb_sql.h"
#include "test_support.h"

namespace winnow::testing {

// Every mapped type, nulls in every column but the id, 3,000 rows in row groups of 1,000
// (so DuckDB's 2,048-row chunks straddle row groups), non-finite doubles included.
inline constexpr const char* kAllTypes = R"sql(
  SELECT i AS id,
    CASE WHEN i % 11 = 5 THEN NULL ELSE 'doc ' || i || ' "quoted" \ back' || chr(10) || 'slash é ✓'
      || ' NaN -Infinity \"' END AS text,
    CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 37 - 500)::INTEGER END AS int32,
    (i % 100 - 50)::TINYINT AS int8,
    CASE WHEN i % 5 = 0 THEN NULL ELSE (i::UBIGINT * 4000000000000) END AS uint64,
    CASE i % 9 WHEN 1 THEN 'nan'::DOUBLE WHEN 2 THEN 'inf'::DOUBLE WHEN 3 THEN '-inf'::DOUBLE
      WHEN 4 THEN NULL ELSE i / 7.0 END AS float64,
    (i / 3.0)::FLOAT AS float32,
    (i * 1.25)::DECIMAL(12, 2) AS dec,
    ((i - 1500)::HUGEINT * 1000000000000000000000)::DECIMAL(38, 0) AS wide,
    CASE WHEN i % 3 = 0 THEN NULL ELSE i % 2 = 0 END AS flag,
    CASE WHEN i % 13 = 0 THEN NULL
      ELSE TIMESTAMP '2024-02-29 23:59:58.123456' + INTERVAL (i) SECOND END AS ts,
    DATE '1999-12-31' + i::INTEGER AS day,
    CASE WHEN i % 4 = 0 THEN NULL WHEN i % 4 = 1 THEN []::INTEGER[]
      ELSE [i::INTEGER, NULL, -1] END AS ints,
    [[i::FLOAT / 2], [], NULL] AS nested,
    CASE WHEN i % 6 = 0 THEN NULL ELSE {'n': i, 's': 'x' || i, 'when': [DATE '2020-01-01'],
      'inner': {'b': i % 2 = 1, 'z': NULL::VARCHAR}} END AS record,
    MAP {'a': i::INTEGER, 'b''q': NULL::INTEGER} AS mapping,
    [{'k': 'v' || i}] AS list_of_structs,
    ['-inf'::DOUBLE, 'nan'::DOUBLE, i / 2, 'inf'::DOUBLE] AS non_finite_list,
    CASE WHEN i % 8 = 0 THEN NULL ELSE 'only nulls sometimes' END AS sparse
  FROM range(3000) t(i)
)sql";

// DIR/all.parquet: the rows of kAllTypes that `where` keeps ("" for all), written by DuckDB with
// `options` after FORMAT parquet (", ROW_GROUP_SIZE 700"); its path.
inline std::string all_types_file(const TempDir& dir, DuckDbSql& db,
                                  const std::string& options = "", const std::string& where = "") {
  std::string path = dir.file("all.parquet");
  db.exec(std::string("COPY (") + kAllTypes + where + ") TO '" + path + "' (FORMAT parquet" +
          options + ")");
  return path;
}

}  // namespace winnow::testing
