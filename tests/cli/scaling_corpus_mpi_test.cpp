// Distributed connected components under mpirun (the mpi label) on bench/make_scaling_corpus
// at a tenth of the benchmark's size: one group of 10,000 near-copies, one chain of 20,000
// near-duplicates (consecutive ones alike, distant ones not) and planted groups among 60,000
// documents. `winnow dedup identify` with fuzzy dedup gives the same duplicates table, byte for
// byte, in one process and on mpirun -np 2 and 3 (an even and an uneven split); the chain is one group; the busiest rank holds
// about its share of the links; labelling takes O(log length) rounds (stats.json).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>

#include "dist/mpi_launch.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow {
namespace {

TEST(ScalingCorpusMpi, ChainAndLargeGroupAreTheSameOnAnyRankCount) {
  if (!testing::kMpiAvailable) GTEST_SKIP() << "winnow was built without MPI";
  testing::TempDir dir;
  std::string log;
  ASSERT_EQ(testing::run_command(testing::kSource + "/bench/make_scaling_corpus " +
                                     dir.file("corpus") + " 60000 10000 20000 4",
                                 &log),
            0)
      << log;
  testing::write_file(dir.file("p.yaml"), "stages:\n  - stage: fuzzy_dedup\n");
  auto identify = [&](int ranks, const std::string& out) {
    std::string printed;
    const std::string command = (ranks > 0 ? testing::mpirun(ranks) + " " : std::string()) +
                                testing::kWinnow + " dedup identify " + dir.file("p.yaml") +
                                " -i " + dir.file("corpus") + " -o " + out +
                                " --no-progress -q " + (ranks > 0 ? "-t 1" : "-t 2");
    EXPECT_EQ(testing::run_command(command, &printed), 0) << printed;
    return testing::read_file(out + "/global/fuzzy_dedup/duplicates.jsonl");
  };
  const std::string expected = identify(0, dir.file("alone"));
  simdjson::dom::parser parser;
  auto summary = parser.load(dir.file("alone") + "/global/fuzzy_dedup/summary.json");
  EXPECT_EQ(uint64_t(summary["component_sizes"]["20000"]), 1u) << "the chain is one group";
  for (int ranks : {2, 3}) {
    const std::string out = dir.file("np" + std::to_string(ranks));
    EXPECT_TRUE(identify(ranks, out) == expected) << ranks << " ranks";
    auto run = parser.load(out + "/stats.json")["global_steps"]["fuzzy_dedup"]["identify_run"];
    uint64_t total = 0, busiest = 0;
    for (uint64_t links : simdjson::dom::array(run["links_by_rank"])) {
      total += links;
      busiest = std::max(busiest, links);
    }
    EXPECT_LE(static_cast<double>(busiest), 1.2 * static_cast<double>(total) / ranks);
    EXPECT_LE(static_cast<double>(uint64_t(run["propagation_rounds"])),
              2 * std::log2(20000.0) + 4);
  }
}

}  // namespace
}  // namespace winnow
