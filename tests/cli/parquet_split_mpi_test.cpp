// The ranges of one split Parquet file spread over MPI ranks like any shards (the mpi label):
// `winnow run` on 2 and 3 ranks writes what one process without MPI writes, byte for byte,
// with exact and fuzzy dedup whose duplicates sit in ranges on different ranks. Skipped when
// winnow was built without MPI.
#include <gtest/gtest.h>

#include <string>

#include "dist/mpi_launch.h"
#include "duckdb_sql.h"
#include "pipeline/pipeline_fixture.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

TEST(ParquetSplitMpi, RangesOfOneFileOnSeveralRanksGiveTheOneProcessOutput) {
  if (!kMpiAvailable) GTEST_SKIP() << "winnow was built without MPI";
  TempDir dir;
  DuckDbSql db;
  // Four row groups of 2,048 rows; row i and row i + 4096 share a text: duplicates two row
  // groups apart.
  db.exec(
      "COPY (SELECT i AS id, 'document ' || (i % 4096) || ' ' || repeat('w' || (i % 4096) || "
      "' ', 30) AS text FROM range(8192) t(i)) TO '" +
      dir.file("a.parquet") + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
  std::string pipeline =
      pipeline_file(dir,
                    "input: {parquet_split_mb: 0.00001}\noutput: {format: jsonl}\n"
                    "stages:\n  - stage: exact_dedup\n  - stage: fuzzy_dedup\n");
  auto run_on = [&](int ranks, const std::string& out) {
    std::string command = (ranks > 0 ? mpirun(ranks) + " " : std::string()) + kWinnow + " run " +
                          pipeline + " -q --no-progress -t 1 -i " + dir.file("a.parquet") + " -o " +
                          dir.file(out);
    std::string printed;
    EXPECT_EQ(run_command(command, &printed), 0) << printed;
  };
  run_on(0, "alone");
  const auto expected = read_output_tree(dir.file("alone"));
  ASSERT_TRUE(expected.count("a-r00003.jsonl"));  // four row groups, four ranges
  EXPECT_EQ(stats_total(dir.file("alone/stats.json"), "dropped"), 4096u);
  for (int ranks : {2, 3}) {
    const std::string out = "np" + std::to_string(ranks);
    run_on(ranks, out);
    EXPECT_TRUE(read_output_tree(dir.file(out)) == expected) << ranks << " ranks";
  }
}

}  // namespace
}  // namespace winnow::testing
