// dist/poll_backoff.h: the schedule by which a rank tests a pending collective (pauses by
// hand: 100 tests back to back, then 10, 20, 40, ... 640 us, then 1 ms each), the loop that
// follows it, and the bound on tests in a given time that the MPI check relies on.
#include "dist/poll_backoff.h"

#include <gtest/gtest.h>

#include <vector>

namespace winnow::dist {
namespace {

using std::chrono::microseconds;
using std::chrono::nanoseconds;

TEST(PollBackoff, SpinsThenDoublesUpToTheCap) {
  const PollBackoff backoff;  // 100 spins, 10 us, capped at 1 ms
  EXPECT_EQ(backoff.pause_after(1), nanoseconds{0});
  EXPECT_EQ(backoff.pause_after(100), nanoseconds{0});
  const std::vector<microseconds> expected = {microseconds{10},  microseconds{20},
                                              microseconds{40},  microseconds{80},
                                              microseconds{160}, microseconds{320},
                                              microseconds{640}, microseconds{1000},
                                              microseconds{1000}};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(backoff.pause_after(101 + i), expected[i]) << "after test " << 101 + i;
  }
  EXPECT_EQ(backoff.pause_after(1'000'000'000), microseconds{1000});
}

TEST(PollBackoff, PollUntilPausesByTheScheduleAndCountsTests) {
  const PollBackoff backoff{2, microseconds{5}, microseconds{15}};
  int calls = 0;
  std::vector<nanoseconds> pauses;
  const uint64_t tests = poll_until([&] { return ++calls == 7; },
                                    [&](nanoseconds pause) { pauses.push_back(pause); }, backoff);
  EXPECT_EQ(tests, 7u);
  EXPECT_EQ(calls, 7);
  // Tests 1 and 2 fail without a pause; after 3, 4, 5 and 6: 5, 10, 15 (capped), 15 us.
  EXPECT_EQ(pauses, (std::vector<nanoseconds>{microseconds{5}, microseconds{10},
                                               microseconds{15}, microseconds{15}}));
}

TEST(PollBackoff, ARequestAlreadyDoneIsTestedOnceWithoutPause) {
  int pauses = 0;
  EXPECT_EQ(poll_until([] { return true; }, [&](nanoseconds) { ++pauses; }), 1u);
  EXPECT_EQ(pauses, 0);
}

TEST(PollBackoff, MostTestsWithinATime) {
  const PollBackoff backoff;
  // The 101st test comes without a pause, the 102nd 10 us later, the 103rd 30 us after the
  // first, ...; after the 107th (pauses 10 + 20 + 40 + 80 + 160 + 320 = 630 us), 640 us, then
  // 1 ms for each further test: test 108 at 1,270 us, test 108 + k at 1,270 + 1,000 k us.
  EXPECT_EQ(backoff.most_tests_within(nanoseconds{0}), 101u);
  EXPECT_EQ(backoff.most_tests_within(microseconds{9}), 101u);
  EXPECT_EQ(backoff.most_tests_within(microseconds{10}), 102u);
  EXPECT_EQ(backoff.most_tests_within(microseconds{29}), 102u);
  EXPECT_EQ(backoff.most_tests_within(microseconds{30}), 103u);
  EXPECT_EQ(backoff.most_tests_within(microseconds{1269}), 107u);
  EXPECT_EQ(backoff.most_tests_within(microseconds{1270}), 108u);
  EXPECT_EQ(backoff.most_tests_within(microseconds{2269}), 108u);
  EXPECT_EQ(backoff.most_tests_within(microseconds{2270}), 109u);
  // One second of waiting: 108 + 998 tests (where a spinning rank would make millions).
  EXPECT_EQ(backoff.most_tests_within(std::chrono::seconds{1}), 108u + 998u);
}

TEST(PollBackoff, BoundAgreesWithTheLoopOnAFakeClock) {
  // The loop run against a clock that each pause advances: the tests made by the time the
  // clock reads t are exactly most_tests_within(t), for a schedule whose cap is reached.
  const PollBackoff backoff{3, microseconds{7}, microseconds{50}};
  for (nanoseconds limit : {nanoseconds{0}, nanoseconds{6'999}, nanoseconds{7'000},
                            nanoseconds{100'000}, nanoseconds{1'234'567}}) {
    nanoseconds clock{0};
    uint64_t made = 0;
    poll_until(
        [&] {
          ++made;
          return clock + backoff.pause_after(made) > limit;  // the next would come too late
        },
        [&](nanoseconds pause) { clock += pause; }, backoff);
    EXPECT_EQ(made, backoff.most_tests_within(limit)) << limit.count() << " ns";
  }
}

}  // namespace
}  // namespace winnow::dist
