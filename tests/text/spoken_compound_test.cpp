// read_spoken_compound on its own: telephone numbers, numeric dates, year ranges and
// hyphenated numbers, and what it leaves. NeMo's cases run through spoken_english
// (spoken_english_test.cpp).
#include "text/spoken_compound.h"

#include <gtest/gtest.h>

namespace winnow::testing {
namespace {

TEST(SpokenCompound, ReadsEachForm) {
  EXPECT_EQ(read_spoken_compound("800-555-0100"),
            "eight hundred, five five five, zero one zero zero");
  EXPECT_EQ(read_spoken_compound("+44-800-555-0100-12"),
            "plus four four, eight hundred, five five five, zero one zero zero, one two");
  EXPECT_EQ(read_spoken_compound("10.0.0.1"), "one zero dot zero dot zero dot one");
  EXPECT_EQ(read_spoken_compound("12/25/1999"), "december twenty fifth nineteen ninety nine");
  EXPECT_EQ(read_spoken_compound("31.12.2000"), "the thirty first of december two thousand");
  EXPECT_EQ(read_spoken_compound("2001-09-11"), "september eleventh two thousand one");
  EXPECT_EQ(read_spoken_compound("1914-18"), "nineteen fourteen to eighteen");
  EXPECT_EQ(read_spoken_compound("3-4-5"), "three - four - five");
  EXPECT_EQ(read_spoken_compound("5pm-7pm"), "five PM to seven PM");
}

TEST(SpokenCompound, LeavesWhatItDoesNotRead) {
  for (const char* core : {"", "5", "1995", "covid-19", "2-x", "-5", "5-", "13/13/2000",
                           "1234.12.1.1", "1980-3000s", "1--2", "12:00:00:00"}) {
    EXPECT_FALSE(read_spoken_compound(core)) << core;
  }
}

}  // namespace
}  // namespace winnow::testing
