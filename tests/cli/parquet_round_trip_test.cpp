// Parquet in, Parquet out through the `winnow` binary with no stages: every type DuckDB writes
// comes back bit for bit. DuckDB writes the input and reads both files; each column is compared
// row by row as DuckDB prints it (hex for blobs), with its type. A type winnow cannot write back
// (a UNION, which DuckDB reads as a struct with unnamed fields) is refused before the run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "duckdb_sql.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// One column per type (awkward values, and a null in each), four rows.
constexpr const char* kEveryType = R"sql(
  SELECT i AS id, 'row ' || i AS text,
    ['\xFF\x80\x00'::BLOB, 'a\x5Cb\x22'::BLOB, ''::BLOB, NULL][i + 1] AS blob,
    (SELECT unhex(string_agg(printf('%02X', b), '' ORDER BY b)) FROM range(256) r(b)) AS all_bytes,
    ['0101'::BIT, '1'::BIT, NULL, '111000111000111000'::BIT][i + 1] AS bits,
    [170141183460469231731687303715884105727::HUGEINT, -170141183460469231731687303715884105727,
      NULL, 1][i + 1] AS huge,
    [340282366920938463463374607431768211455::UHUGEINT, 0, 18446744073709551616, NULL][i + 1]
      AS uhuge,
    [INTERVAL '1 month 2 days 3 hours 4.005 seconds', INTERVAL '14 months', NULL,
      INTERVAL '0 seconds'][i + 1] AS span,
    ['b'::ENUM('a', 'b', 'c''d'), 'c''d', NULL, 'a'][i + 1] AS choice,
    [[1, NULL, 3]::INTEGER[3], [4, 5, 6], NULL, [7, 8, 9]][i + 1] AS triple,
    CAST([['\x00', NULL], ['\xFE', 'x'], NULL, ['', '\x5C']] AS BLOB[2][])[i + 1] AS blob_pair,
    [[{'b': '\xC3\x28'::BLOB, 'd': 12345678901234567890.1234567891::DECIMAL(38,10)}],
      [], NULL, [NULL, {'b': NULL, 'd': -0.0000000001}]][i + 1] AS nested,
    CAST([MAP {'k\xFF': '\x01'}, MAP {}, NULL, MAP {'\x22q': NULL}] AS MAP(BLOB, BLOB)[])[i + 1]
      AS blob_map,
    [MAP {1: 123456789012345678.901::DECIMAL(21,3)}, NULL, MAP {2: 0}, MAP {}][i + 1] AS dec_map,
    CAST(['0.12345678901234', '-9.99999999999999', NULL, '0'] AS DECIMAL(15,14)[])[i + 1] AS dec15,
    CAST(['0.12345678901234567', '-9.99999999999999999', NULL, '0'] AS DECIMAL(18,17)[])[i + 1]
      AS dec18,
    CAST(['12345678901234567890.1234567891', NULL, '-0.0000000001', '0'] AS DECIMAL(38,10)[])
      [i + 1] AS dec38,
    [-10000000000000000000000000000000000000::DECIMAL(38,0), 99999999999999999999999999999999999999,
      NULL, 0][i + 1] AS dec38_0,
    CAST(['nan', 'inf', '-inf', '-0.0'] AS DOUBLE[])[i + 1] AS dbl,
    [1e308::DOUBLE, 5e-324, NULL, 0.1][i + 1] AS dbl2,
    CAST(['nan', '-inf', '0.1', '-0.0'] AS FLOAT[])[i + 1] AS flt,
    CAST([['nan', 'inf', NULL], [], NULL, ['-inf', '-0.0']] AS DOUBLE[][])[i + 1] AS dbl_list,
    [TIMESTAMPTZ '2024-03-10 12:34:56.789123+05:30', 'infinity', NULL,
      TIMESTAMPTZ '1970-01-01 00:00:00+00'][i + 1] AS tstz,
    [TIMESTAMP '2024-02-29 23:59:58.123456', '-infinity', NULL, '0001-01-01'][i + 1] AS ts,
    [TIMESTAMP_NS '2024-01-01 01:02:03.123456789', NULL, '1677-09-22 00:00:00', '2262-04-11']
      [i + 1] AS ts_ns,
    [TIMESTAMP_MS '2024-01-01 00:00:00.123', NULL, '1970-01-01', '2000-01-01'][i + 1] AS ts_ms,
    [TIMESTAMP_S '2024-01-01 00:00:01', NULL, '1970-01-01', '2000-01-01'][i + 1] AS ts_s,
    [DATE '2024-02-29', 'infinity', NULL, '0001-01-01'][i + 1] AS day,
    [TIME '23:59:59.999999', '00:00:00', NULL, '12:00:00.5'][i + 1] AS clock,
    [TIMETZ '12:00:00+05:30', NULL, '00:00:00+00', '23:59:59-08'][i + 1] AS clock_tz,
    ['00000000-0000-0000-0000-000000000000'::UUID, 'ffffffff-ffff-ffff-ffff-ffffffffffff', NULL,
      '6fcf915f-8dde-4055-9dce-4a0d897bae6e'][i + 1] AS uuid,
    [18446744073709551615::UBIGINT, 0, NULL, 9223372036854775808][i + 1] AS ubig,
    [(-9223372036854775808)::BIGINT, 9223372036854775807, NULL, 0][i + 1] AS big,
    [{'s': 'x', 'm': MAP {'a': [1, 2]}}, NULL, {'s': NULL, 'm': NULL},
      {'s': '"\\', 'm': MAP {}}][i + 1] AS record,
    ['{"a":1,"b":[1.5,18446744073709551616]}'::JSON, '[]', NULL, '"s"'][i + 1] AS json
  FROM range(4) t(i)
)sql";

// A column as DuckDB prints it, blobs in hex: what "the same value" means here.
std::string printed(const std::string& name, const std::string& type) {
  if (type == "BLOB") return "hex(\"" + name + "\")";
  return "\"" + name + "\"::VARCHAR";
}

TEST(ParquetRoundTrip, EveryTypeDuckdbWritesComesBackBitForBit) {
  TempDir dir;
  DuckDbSql db;
  fs::create_directories(dir.file("in"));
  std::string source = dir.file("in/types.parquet");
  db.exec(std::string("COPY (") + kEveryType + ") TO '" + source + "' (FORMAT parquet)");
  std::string pipeline = pipeline_file(dir, "stages: []\n");
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline + " -q --output-format parquet -i " + source + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  std::string written = dir.file("out/types.parquet");
  ASSERT_TRUE(fs::exists(written)) << out;
  // The same columns with the same types, in the same order.
  EXPECT_EQ(db.columns(read_parquet(written)), db.columns(read_parquet(source)));
  auto rows = db.rows("DESCRIBE SELECT * FROM " + read_parquet(source));
  ASSERT_GT(rows.size(), 30u);
  for (const auto& row : rows) {
    const std::string& name = row[0];
    std::string values = "SELECT id, " + printed(name, row[1]) + " AS v FROM ";
    std::string in = db.value("SELECT string_agg(coalesce(v, 'NULL'), ' | ' ORDER BY id) FROM (" +
                              values + read_parquet(source) + ")");
    std::string back = db.value("SELECT string_agg(coalesce(v, 'NULL'), ' | ' ORDER BY id) FROM (" +
                                values + read_parquet(written) + ")");
    EXPECT_EQ(back, in) << name << " " << row[1];
    EXPECT_EQ(db.value("SELECT count(*) FROM (" + values + read_parquet(source) + ")"), "4");
  }
}

// The issue's case: bytes that are not printable ASCII, and a backslash, in a blob; digits past
// a double's in a decimal. Both came back damaged while the run exited 0.
TEST(ParquetRoundTrip, BlobsAndWideDecimalsAreNotDamaged) {
  TempDir dir;
  DuckDbSql db;
  std::string source = dir.file("b.parquet");
  db.exec(
      "COPY (SELECT 1 AS id, 'a' AS text, '\\xFF\\x80\\x00'::BLOB AS b, "
      "0.12345678901234567::DECIMAL(18,17) AS d UNION ALL SELECT 2, 'b', 'a\\x5Cb'::BLOB, "
      "-9.99999999999999999) TO '" +
      source + "' (FORMAT parquet)");
  std::string pipeline = pipeline_file(dir, "stages: []\n");
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline + " -q --output-format parquet -i " + source + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  auto values = [&](const std::string& file) {
    return db.value("SELECT string_agg(hex(b) || ' ' || d::VARCHAR, ', ' ORDER BY id) FROM " +
                    read_parquet(file));
  };
  EXPECT_EQ(values(source), "FF8000 0.12345678901234567, 615C62 -9.99999999999999999");
  EXPECT_EQ(values(dir.file("out/b.parquet")), values(source));
}

// TIMESTAMP WITH TIME ZONE values reach JSON records in UTC, whatever the machine's time zone.
TEST(ParquetRoundTrip, TimestampsWithTimeZoneAreWrittenToJsonInUtc) {
  TempDir dir;
  DuckDbSql db;
  std::string source = dir.file("tz.parquet");
  db.exec(
      "COPY (SELECT 1 AS id, 'a' AS text, TIMESTAMPTZ '2024-03-10 12:34:56.789123+05:30' AS "
      "at) TO '" +
      source + "' (FORMAT parquet)");
  std::string pipeline = pipeline_file(dir, "stages: []\n");
  const char* zone = getenv("TZ");
  std::string saved = zone ? zone : "";
  setenv("TZ", "Asia/Kolkata", 1);
  std::string out;
  int status = winnow(
      "run " + pipeline + " -q --output-format jsonl -i " + source + " -o " + dir.file("out"),
      &out);
  if (zone) {
    setenv("TZ", saved.c_str(), 1);
  } else {
    unsetenv("TZ");
  }
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(read_file(dir.file("out/tz.jsonl")),
            "{\"id\":1,\"text\":\"a\",\"at\":\"2024-03-10 07:04:56.789123+00\"}\n");
}

TEST(ParquetRoundTrip, AUnionColumnIsRefusedForParquetOutputNamingFileAndColumn) {
  TempDir dir;
  DuckDbSql db;
  fs::create_directories(dir.file("in"));
  std::string source = dir.file("in/union.parquet");
  db.exec(
      "COPY (SELECT 1 AS id, 'a' AS text, union_value(s := '1')::UNION(i INTEGER, s VARCHAR) "
      "AS choice) TO '" +
      source + "' (FORMAT parquet)");
  std::string pipeline = pipeline_file(dir, "stages: []\n");
  std::string out;
  EXPECT_EQ(winnow("run " + pipeline + " -q --output-format parquet -i " + dir.file("in") + " -o " +
                       dir.file("out"),
                   &out),
            2);
  EXPECT_THAT(out, HasSubstr(source + ": column 'choice' is STRUCT(UTINYINT, INTEGER, VARCHAR), a "
                                      "type winnow cannot write back as Parquet"));
  EXPECT_FALSE(fs::exists(dir.file("out")));
  // JSON Lines output carries it as an object.
  ASSERT_EQ(winnow("run " + pipeline + " -q --output-format jsonl -i " + dir.file("in") + " -o " +
                       dir.file("jsonl"),
                   &out),
            0)
      << out;
  EXPECT_THAT(read_file(dir.file("jsonl/union.jsonl")),
              HasSubstr("\"choice\":{\"\":1,\"i\":null,\"s\":\"1\"}"));
}

}  // namespace
}  // namespace winnow::testing
