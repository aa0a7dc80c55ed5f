// dist/mpi_comm.h under a real mpirun: mpi_comm_check exchanges messages of awkward sizes in
// rounds of 1000 bytes on 2 and 3 ranks, ranks waiting 200 ms for a sleeping one test their
// barrier no more often than dist/poll_backoff.h allows, and its shared counter is taken from
// by three threads per rank. Skipped when winnow was built without MPI.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dist/mpi_launch.h"
#include "test_support.h"

namespace winnow {
namespace {

TEST(MpiComm, CollectivesDeliverEveryByteAcrossRounds) {
  if (!testing::kMpiAvailable) GTEST_SKIP() << "winnow was built without MPI";
  for (int ranks : {2, 3}) {
    std::string out;
    int rc = testing::run_command(testing::mpirun(ranks) + " " + WINNOW_MPI_COMM_CHECK, &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_THAT(out, ::testing::HasSubstr("ok " + std::to_string(ranks) + " ranks")) << out;
  }
}

}  // namespace
}  // namespace winnow
