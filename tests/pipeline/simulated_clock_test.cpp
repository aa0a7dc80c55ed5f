#include "pipeline/simulated_clock.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace winnow {
namespace {

using namespace std::chrono_literals;

TEST(SimulatedClock, ASleepLastsExactlyItsTime) {
  SimulatedClock clock;
  SimulatedClock::Participant me(clock);
  const auto begin = clock.now();
  clock.sleep_for(3600s);  // an hour, at once
  EXPECT_EQ(clock.now() - begin, std::chrono::steady_clock::duration(3600s));
  clock.sleep_until(begin);  // in the past: no wait
  EXPECT_EQ(clock.now() - begin, std::chrono::steady_clock::duration(3600s));
}

TEST(SimulatedClock, TimeStandsStillWhileAKnownThreadRuns) {
  SimulatedClock clock;
  SimulatedClock::Participant me(clock);
  Clock::time_point worker_done;
  const auto begin = clock.now();
  ClockThread worker(clock, [&] {
    // Real work (20 ms of the real clock) while every other thread waits: no simulated time.
    auto until = std::chrono::steady_clock::now() + 20ms;
    while (std::chrono::steady_clock::now() < until) std::this_thread::yield();
    worker_done = clock.now();
    clock.sleep_for(5ms);
  });
  ClockThread sleeper(clock, [&] { clock.sleep_for(1ms); });
  worker.join();
  sleeper.join();
  EXPECT_EQ(worker_done, begin);  // the sleeper's 1 ms could not pass while it ran
  EXPECT_EQ(clock.now() - begin, std::chrono::steady_clock::duration(5ms));
}

TEST(SimulatedClock, ANotificationWakesAWaiterWithoutMovingTime) {
  SimulatedClock clock;
  SimulatedClock::Participant me(clock);
  std::mutex mutex;
  ClockCondition ready_cv(clock);
  bool ready = false;
  Clock::time_point woke;
  const auto begin = clock.now();
  ClockThread waiter(clock, [&] {
    std::unique_lock lock(mutex);
    EXPECT_TRUE(ready_cv.wait_until(lock, begin + 1s, [&] { return ready; }));
    woke = clock.now();
  });
  clock.sleep_for(10ms);  // the waiter is surely waiting now: time could move
  {
    std::lock_guard lock(mutex);
    ready = true;
  }
  ready_cv.notify_one();
  waiter.join();
  EXPECT_EQ(woke - begin, std::chrono::steady_clock::duration(10ms));
}

TEST(SimulatedClock, AWaitEndsAtItsDeadlineExactly) {
  SimulatedClock clock;
  SimulatedClock::Participant me(clock);
  std::mutex mutex;
  ClockCondition never(clock);
  const auto deadline = clock.now() + 250ms;
  std::unique_lock lock(mutex);
  EXPECT_FALSE(never.wait_until(lock, deadline, [] { return false; }));
  EXPECT_EQ(clock.now(), deadline);
}

TEST(SimulatedClock, SleepersWakeInDeadlineOrder) {
  SimulatedClock clock;
  SimulatedClock::Participant me(clock);
  std::mutex mutex;
  std::vector<int> order;
  std::vector<ClockThread> threads;
  for (int ms : {30, 10, 20}) {
    threads.emplace_back(clock, [&, ms] {
      clock.sleep_for(std::chrono::milliseconds(ms));
      std::lock_guard lock(mutex);
      order.push_back(ms);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(order, (std::vector<int>{10, 20, 30}));
}

TEST(SimulatedClockDeathTest, EveryThreadWaitingWithoutADeadlineIsADeadlock) {
  EXPECT_DEATH(
      {
        SimulatedClock clock;
        SimulatedClock::Participant me(clock);
        std::mutex mutex;
        ClockCondition never(clock);
        std::unique_lock lock(mutex);
        never.wait(lock, [] { return false; });
      },
      "deadlock");
}

}  // namespace
}  // namespace winnow
