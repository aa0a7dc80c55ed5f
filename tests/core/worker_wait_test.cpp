#include "core/worker_wait.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

struct CountingLease : CpuLease {
  int lent = 0, taken_back = 0;
  void lend() override { ++lent; }
  void take_back() override { ++taken_back; }
};

TEST(WorkerWait, LendsTheShareForTheOutermostWaitOnly) {
  CountingLease lease;
  set_worker_cpu_lease(&lease);
  {
    WorkerWait outer;
    EXPECT_EQ(lease.lent, 1);
    {
      WorkerWait inner;
      EXPECT_EQ(lease.lent, 1);
    }
    EXPECT_EQ(lease.taken_back, 0);
  }
  EXPECT_EQ(lease.taken_back, 1);
  set_worker_cpu_lease(nullptr);
  { WorkerWait outside_a_worker; }  // nothing to lend
  EXPECT_EQ(lease.lent, 1);
  EXPECT_EQ(lease.taken_back, 1);
}

}  // namespace
}  // namespace winnow
