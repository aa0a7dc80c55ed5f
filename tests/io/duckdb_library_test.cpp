// DuckDB is loaded on first use (io/duckdb_library.cpp): nothing links it, so a process that
// reads and writes no Parquet never maps it, and the first session loads it. One test, so the
// order of the checks in this process is fixed (a loaded library stays loaded).
#include "io/duckdb_library.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include "io/duckdb_session.h"

namespace winnow {
namespace {

bool duckdb_mapped() {
  void* loaded = ::dlopen("libduckdb.so", RTLD_NOW | RTLD_NOLOAD);
  if (loaded != nullptr) ::dlclose(loaded);
  return loaded != nullptr;
}

TEST(DuckdbLibrary, LoadedOnlyWhenASessionOpensAndItsCallsThenWork) {
  ASSERT_FALSE(duckdb_requested()) << "something asked for DuckDB before main";
  // Independent of the flag: the dynamic loader has not mapped it (the test program does not
  // depend on it either).
  EXPECT_FALSE(duckdb_mapped());

  auto session = DuckdbSession::open();
  ASSERT_TRUE(session.is_ok()) << session.status().message();
  EXPECT_TRUE(duckdb_requested());
  EXPECT_TRUE(duckdb_mapped());
  EXPECT_TRUE(load_duckdb().is_ok());

  duckdb_result result;
  ASSERT_EQ(duckdb_query((*session)->connection(), "SELECT 6 * 7 AS answer, 'forty-two' AS name",
                         &result),
            DuckDBSuccess);
  EXPECT_EQ(duckdb_row_count(&result), 1u);
  EXPECT_EQ(duckdb_column_count(&result), 2u);
  EXPECT_EQ(duckdb_value_int64(&result, 0, 0), 42);
  char* name = duckdb_value_varchar(&result, 1, 0);
  EXPECT_STREQ(name, "forty-two");
  duckdb_free(name);
  duckdb_destroy_result(&result);

  // A failed query's message comes back through the same calls.
  Status bad = (*session)->exec("SELECT * FROM no_such_table");
  EXPECT_FALSE(bad.is_ok());
  EXPECT_NE(bad.message().find("no_such_table"), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace winnow
