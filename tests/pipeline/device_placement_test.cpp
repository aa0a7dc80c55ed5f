#include "pipeline/device_placement.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "pipeline/resources.h"
#include "pipeline/simulated_clock.h"

namespace winnow {
namespace {

TEST(DevicePlacement, BudgetIsWholeDevicesAndAFraction) {
  DevicePlacement p(2.5);
  ASSERT_EQ(p.devices(), 3);
  EXPECT_EQ(p.capacity(0), 1000);
  EXPECT_EQ(p.capacity(1), 1000);
  EXPECT_EQ(p.capacity(2), 500);
  EXPECT_EQ(DevicePlacement(0).devices(), 0);
  EXPECT_EQ(DevicePlacement(1).devices(), 1);
}

// Fractional workers spread over the least loaded devices and never span two.
TEST(DevicePlacement, FractionalWorkersBalanceAndNeverSpan) {
  DevicePlacement p(2);
  EXPECT_EQ(p.bind(0.4), 0);
  EXPECT_EQ(p.bind(0.4), 1);
  EXPECT_EQ(p.bind(0.4), 0);
  EXPECT_EQ(p.bind(0.4), 1);
  // 0.8 bound on each: a third 0.4 fits on neither (it would span devices).
  EXPECT_EQ(p.bind(0.4), -1);
  EXPECT_EQ(p.bind(0.2), 0);
  EXPECT_EQ(p.bind(0.2), 1);
  EXPECT_EQ(p.bind(0.01), -1);
  p.unbind(1, 0.4);
  EXPECT_EQ(p.bound(1), 600);
  EXPECT_EQ(p.bind(0.4), 1);
}

TEST(DevicePlacement, FractionalDeviceHoldsOnlyItsShare) {
  DevicePlacement p(1.5);
  EXPECT_EQ(p.bind(0.75), 0);
  EXPECT_EQ(p.bind(0.75), -1);  // device 1 holds 0.5 of the budget
  EXPECT_EQ(p.bind(0.5), 1);
}

TEST(DevicePlacement, WholeGpuWorkersTakeFreeDevices) {
  DevicePlacement p(4);
  EXPECT_EQ(p.bind(0.5), 0);
  EXPECT_EQ(p.bind(2), 1);  // devices 1 and 2
  EXPECT_EQ(p.bind(1), 3);
  EXPECT_EQ(p.bind(1), -1);
  p.unbind(1, 2);
  EXPECT_EQ(p.bound(1), 0);
  EXPECT_EQ(p.bound(2), 0);
  EXPECT_EQ(p.bind(2), 1);
  EXPECT_EQ(DevicePlacement::span(0.5), 1);
  EXPECT_EQ(DevicePlacement::span(3), 3);
}

// The pool binds workers per device and holds each device's budget while batches run.
TEST(ResourcePoolDevices, BindsWorkersAndKeepsEachDeviceWithinBudget) {
  // On a simulated clock: time moves only once every thread waits, so a sleep of the test's
  // proves the waiter below is blocked, whatever the machine's load.
  SimulatedClock clock;
  SimulatedClock::Participant me(clock);
  ResourcePool pool({8, 2}, clock);
  StageResources half{1, 0.6, false};
  GpuBinding a = pool.bind_gpu(half);
  GpuBinding b = pool.bind_gpu(half);
  GpuBinding c = pool.bind_gpu(half);  // no room left: shares the least loaded, not held
  EXPECT_EQ(a.device, 0);
  EXPECT_TRUE(a.held);
  EXPECT_EQ(b.device, 1);
  EXPECT_TRUE(b.held);
  EXPECT_FALSE(c.held);
  EXPECT_GE(c.device, 0);
  EXPECT_EQ(pool.bind_gpu(StageResources{}).device, -1);

  ASSERT_TRUE(pool.acquire(half, a.device));
  // c's device is busy with 0.6 of 1: c waits until a or b lets go, though 0.8 is free in all.
  ASSERT_TRUE(pool.acquire(half, b.device));
  std::atomic<bool> got = false;
  ClockThread waiter(clock, [&] { got = pool.acquire(half, c.device); });
  clock.sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(got);
  pool.release(half, c.device);  // whichever of a and b shares c's device
  waiter.join();
  EXPECT_TRUE(got);
  pool.unbind_gpu(half, a);
  pool.unbind_gpu(half, c);  // not held: nothing to let go
  EXPECT_EQ(pool.bind_gpu(half).device, 0);
}

}  // namespace
}  // namespace winnow
