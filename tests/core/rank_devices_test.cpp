#include "core/rank_devices.h"

#include <gtest/gtest.h>

#include <map>

namespace winnow {
namespace {

auto env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

void expect_local(const std::optional<LocalRank>& r, int rank, int size) {
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->rank, rank);
  EXPECT_EQ(r->size, size);
}

TEST(RankDevices, ReadsEachLaunchersLocalRank) {
  expect_local(local_rank_from(env_of({{"OMPI_COMM_WORLD_LOCAL_RANK", "3"},
                                       {"OMPI_COMM_WORLD_LOCAL_SIZE", "8"}})),
               3, 8);
  // Slurm: the third node's entry of "2(x3),1" is 2; the fourth's is 1.
  expect_local(local_rank_from(env_of({{"SLURM_LOCALID", "1"},
                                       {"SLURM_NODEID", "2"},
                                       {"SLURM_TASKS_PER_NODE", "2(x3),1"}})),
               1, 2);
  expect_local(local_rank_from(env_of({{"SLURM_LOCALID", "0"},
                                       {"SLURM_NODEID", "3"},
                                       {"SLURM_TASKS_PER_NODE", "2(x3),1"}})),
               0, 1);
  expect_local(local_rank_from(env_of({{"MPI_LOCALRANKID", "0"}, {"MPI_LOCALNRANKS", "4"}})),
               0, 4);
  expect_local(local_rank_from(env_of({{"PMIX_LOCAL_RANK", "5"}, {"PMIX_LOCAL_SIZE", "6"}})),
               5, 6);
  // Open MPI's variables win over Slurm's when both are there (mpirun inside an allocation).
  expect_local(local_rank_from(env_of({{"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                                       {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"},
                                       {"SLURM_LOCALID", "0"},
                                       {"SLURM_NODEID", "0"},
                                       {"SLURM_TASKS_PER_NODE", "1"}})),
               1, 2);
}

TEST(RankDevices, NothingKnownOrNonsenseGivesNoLocalRank) {
  EXPECT_FALSE(local_rank_from(env_of({})).has_value());
  EXPECT_FALSE(local_rank_from(env_of({{"OMPI_COMM_WORLD_LOCAL_RANK", "4"},
                                       {"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}}))
                   .has_value());  // a rank past the size
  EXPECT_FALSE(local_rank_from(env_of({{"MPI_LOCALRANKID", "x"}, {"MPI_LOCALNRANKS", "2"}}))
                   .has_value());
  EXPECT_FALSE(local_rank_from(env_of({{"SLURM_LOCALID", "0"},
                                       {"SLURM_NODEID", "5"},
                                       {"SLURM_TASKS_PER_NODE", "2(x3)"}}))
                   .has_value());  // no such node
  EXPECT_EQ(slurm_tasks_per_node("4"), (std::vector<int>{4}));
  EXPECT_EQ(slurm_tasks_per_node("1,3(x2)"), (std::vector<int>{1, 3, 3}));
  EXPECT_TRUE(slurm_tasks_per_node("2(x").empty());
  EXPECT_TRUE(slurm_tasks_per_node("0").empty());
}

TEST(RankDevices, EachRankTakesItsOwnShareOfTheNodesDevices) {
  const std::vector<std::string> eight{"0", "1", "2", "3", "4", "5", "6", "7"};
  // One device each, in order.
  for (int r = 0; r < 8; ++r) {
    EXPECT_EQ(devices_of_rank(eight, {r, 8}), (std::vector<std::string>{eight[r]}));
  }
  // Two each.
  EXPECT_EQ(devices_of_rank(eight, {1, 4}), (std::vector<std::string>{"2", "3"}));
  // Three ranks of eight devices: 3, 3, 2, covering every device once.
  std::vector<std::string> all;
  for (int r = 0; r < 3; ++r) {
    auto mine = devices_of_rank(eight, {r, 3});
    EXPECT_EQ(mine.size(), r < 2 ? 3u : 2u);
    all.insert(all.end(), mine.begin(), mine.end());
  }
  EXPECT_EQ(all, eight);
  // More ranks than devices: shared round robin. UUIDs pass through.
  const std::vector<std::string> two{"GPU-aa", "GPU-bb"};
  EXPECT_EQ(devices_of_rank(two, {0, 3}), (std::vector<std::string>{"GPU-aa"}));
  EXPECT_EQ(devices_of_rank(two, {1, 3}), (std::vector<std::string>{"GPU-bb"}));
  EXPECT_EQ(devices_of_rank(two, {2, 3}), (std::vector<std::string>{"GPU-aa"}));
  EXPECT_TRUE(devices_of_rank({}, {0, 2}).empty());
}

}  // namespace
}  // namespace winnow
