// dist/comm.h: the one-process Comm, and the helpers every rank calls (agree, sums, rank 0's
// value) on ranks simulated by threads (dist/thread_comm.h).
#include "dist/comm.h"

#include <gtest/gtest.h>

#include <atomic>

#include "dist/thread_comm.h"

namespace winnow::dist {
namespace {

using winnow::testing::ThreadComms;

TEST(LocalComm, IsOneRankWhoseCollectivesAreTheIdentity) {
  Comm& comm = local_comm();
  EXPECT_EQ(comm.rank(), 0);
  EXPECT_EQ(comm.size(), 1);
  EXPECT_EQ(comm.all_gather("abc"), std::vector<std::string>{"abc"});
  EXPECT_EQ(comm.all_to_all({"x"}), std::vector<std::string>{"x"});
  EXPECT_EQ(sum_over_ranks(comm, {3, 4}), (std::vector<uint64_t>{3, 4}));
  EXPECT_EQ(from_rank0(comm, "v"), "v");
  Status failed = Status::error("disk full");
  EXPECT_EQ(agree(comm, failed).message(), "disk full");  // no rank named in one process
  EXPECT_TRUE(agree(comm, Status::ok()).is_ok());
}

TEST(Agree, EveryRankGetsTheLowestFailingRanksMessage) {
  ThreadComms comms(4);
  std::vector<std::string> seen(4);
  comms.run([&](Comm& comm) {
    Status mine = comm.rank() == 2   ? Status::error("shard 7 is truncated")
                  : comm.rank() == 3 ? Status::error("later failure")
                                     : Status::ok();
    Status agreed = agree(comm, mine);
    seen[static_cast<size_t>(comm.rank())] = agreed.is_ok() ? "ok" : agreed.message();
  });
  for (const std::string& message : seen) EXPECT_EQ(message, "rank 2: shard 7 is truncated");
}

TEST(Agree, AnAgreedFailureIsPassedOnWithoutASecondRankPrefix) {
  ThreadComms comms(3);
  std::vector<std::string> seen(3);
  comms.run([&](Comm& comm) {
    Status first = agree(comm, comm.rank() == 1 ? Status::error("bad") : Status::ok());
    Status again = agree(comm, first);
    seen[static_cast<size_t>(comm.rank())] = again.message();
  });
  for (const std::string& message : seen) EXPECT_EQ(message, "rank 1: bad");
}

TEST(Agree, AllOkIsOk) {
  ThreadComms comms(3);
  std::atomic<int> ok{0};
  comms.run([&](Comm& comm) { ok += agree(comm, Status::ok()).is_ok(); });
  EXPECT_EQ(ok.load(), 3);
}

TEST(Collectives, SumsRank0sValueAndAllToAllOnThreadRanks) {
  ThreadComms comms(3);
  std::vector<std::vector<uint64_t>> sums(3);
  std::vector<std::string> leader(3);
  std::vector<std::vector<std::string>> received(3);
  comms.run([&](Comm& comm) {
    const auto r = static_cast<uint64_t>(comm.rank());
    sums[r] = sum_over_ranks(comm, {r, 10 * r, 1});
    leader[r] = from_rank0(comm, "from " + std::to_string(r));
    std::vector<std::string> out;
    for (int to = 0; to < comm.size(); ++to) out.push_back(std::to_string(r) + ">" + std::to_string(to));
    received[r] = comm.all_to_all(out);
  });
  for (size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(sums[r], (std::vector<uint64_t>{3, 30, 3}));
    EXPECT_EQ(leader[r], "from 0");
    for (size_t from = 0; from < 3; ++from) {
      EXPECT_EQ(received[r][from], std::to_string(from) + ">" + std::to_string(r));
    }
  }
}

}  // namespace
}  // namespace winnow::dist
