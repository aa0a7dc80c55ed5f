#include "core/watched_call.h"

#include <gtest/gtest.h>

#include <future>
#include <string>

namespace winnow {
namespace {

using namespace std::chrono_literals;

TEST(WatchedCaller, ACallWithinItsLimitGivesItsResult) {
  WatchedCaller caller;
  for (int i = 0; i < 100; ++i) {
    std::optional<int> result = caller.run<int>([i] { return i * i; }, 60s);
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(*result, i * i);
  }
}

// A call that cannot end until it is let go is abandoned at its limit; the caller goes on with
// a new helper, and the abandoned call, owning what it uses, finishes later on its own.
TEST(WatchedCaller, ACallPastItsLimitIsAbandonedAndFinishesOnItsOwn) {
  auto release = std::make_shared<std::promise<void>>();
  std::shared_future<void> released = release->get_future().share();
  auto finished = std::make_shared<std::promise<std::string>>();
  std::future<std::string> finished_with = finished->get_future();
  {
    WatchedCaller caller;
    std::string owned(1000, 'x');
    std::optional<int> stuck = caller.run<int>(
        [released, finished, owned] {
          released.wait();
          finished->set_value(owned);
          return 1;
        },
        10ms);
    EXPECT_FALSE(stuck.has_value());
    EXPECT_TRUE(WatchedCaller::abandoned_any());
    std::optional<int> next = caller.run<int>([] { return 2; }, 60s);
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(*next, 2);
  }  // the caller is gone; the abandoned call still runs
  release->set_value();
  EXPECT_EQ(finished_with.get(), std::string(1000, 'x'));
}

}  // namespace
}  // namespace winnow
