// json_transport_type: the types Parquet values travel as through JSON. DuckDB, the reference,
// checks that each rewritten type is one it parses, and that casting a value to it and back
// gives the value again.
#include "io/json_transport_type.h"

#include <gtest/gtest.h>

#include <string>

#include "duckdb_sql.h"

namespace winnow::testing {
namespace {

TEST(JsonTransportType, TypesJsonCarriesExactlyStayAsTheyAre) {
  for (const char* type :
       {"VARCHAR", "BIGINT", "UBIGINT", "DOUBLE", "FLOAT", "DECIMAL(15,14)", "DECIMAL(12,2)",
        "TIMESTAMP WITH TIME ZONE", "INTERVAL", "INTEGER[3]", "ENUM('a', 'b,''c]')",
        "MAP(VARCHAR, INTEGER[])", "STRUCT(\"a b\" INTEGER, \"select\" DATE[])", "JSON"}) {
    EXPECT_EQ(json_transport_type(type), type);
  }
}

TEST(JsonTransportType, LossyPartsBecomeVarcharAtAnyDepth) {
  EXPECT_EQ(json_transport_type("BLOB"), "VARCHAR");
  EXPECT_EQ(json_transport_type("DECIMAL(16,2)"), "VARCHAR");
  EXPECT_EQ(json_transport_type("DECIMAL(38,0)"), "VARCHAR");
  EXPECT_EQ(json_transport_type("HUGEINT"), "VARCHAR");
  EXPECT_EQ(json_transport_type("UHUGEINT[]"), "VARCHAR[]");
  EXPECT_EQ(json_transport_type("BLOB[2][]"), "VARCHAR[2][]");
  EXPECT_EQ(json_transport_type("STRUCT(a BLOB, \"B\"\"x\" DECIMAL(38,2)[], c ENUM('BLOB'))"),
            "STRUCT(a VARCHAR, \"B\"\"x\" VARCHAR[], c ENUM('BLOB'))");
  EXPECT_EQ(json_transport_type("MAP(BLOB, STRUCT(h HUGEINT, n INTEGER))[]"),
            "MAP(VARCHAR, STRUCT(h VARCHAR, n INTEGER))[]");
}

TEST(JsonTransportType, UnnamedStructsCannotBeNamedBack) {
  // How DuckDB reads a UNION column from Parquet.
  EXPECT_EQ(json_transport_type("STRUCT(UTINYINT, INTEGER, VARCHAR)"), std::nullopt);
  EXPECT_EQ(json_transport_type("STRUCT(a INTEGER"), std::nullopt);
  EXPECT_EQ(json_transport_type(""), std::nullopt);
}

TEST(JsonTransportType, DuckdbCastsValuesToTheTransportTypeAndBackExactly) {
  DuckDbSql db;
  const char* values[][2] = {
      {"'\\xFF\\x80\\x00a\\x5Cb''\"]'::BLOB", "BLOB"},
      {"{'a': '\\x00'::BLOB, 'b': [12345678901234567890.1234567891::DECIMAL(38,10), NULL]}",
       "STRUCT(a BLOB, b DECIMAL(38,10)[])"},
      {"MAP {'k\\xFF'::BLOB: (-170141183460469231731687303715884105727)::HUGEINT}",
       "MAP(BLOB, HUGEINT)"},
      {"0.12345678901234567::DECIMAL(18,17)", "DECIMAL(18,17)"},
  };
  for (const auto& [value, type] : values) {
    auto transport = json_transport_type(type);
    ASSERT_TRUE(transport) << type;
    EXPECT_EQ(db.value("SELECT typeof(CAST(" + std::string(value) + " AS " + *transport + "))"),
              *transport);
    EXPECT_EQ(db.value("SELECT CAST(CAST(" + std::string(value) + " AS " + *transport + ") AS " +
                       type + ") IS NOT DISTINCT FROM " + value),
              "true")
        << type;
  }
}

}  // namespace
}  // namespace winnow::testing
