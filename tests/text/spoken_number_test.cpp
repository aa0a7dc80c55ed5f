// read_spoken_number on its own: what it reads with the next token, the kind it reports (money
// and times, which a hyphen between two of them makes a range), and what it leaves. NeMo's
// cases for each class run through spoken_english (spoken_english_test.cpp).
#include "text/spoken_number.h"

#include <gtest/gtest.h>

namespace winnow::testing {
namespace {

TEST(SpokenNumber, TakesTheNextTokenOnlyWhenNemoReadsThemTogether) {
  struct Case {
    const char *core, *next, *words;
    bool took_next;
    SpokenKind kind;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"5", "pm", "five PM", true, SpokenKind::kTime},
           {"5", "cats", "five", false, SpokenKind::kOther},
           {"$45", "billion", "forty five billion dollars", true, SpokenKind::kMoney},
           {"$45", "", "forty five dollars", false, SpokenKind::kMoney},
           {"50", "%", "fifty percent", true, SpokenKind::kOther},
           {"123", "million", "one hundred twenty three million", true, SpokenKind::kOther},
           {"1234", "million", "twelve thirty four", false, SpokenKind::kOther},
           {"10:30", "", "ten thirty", false, SpokenKind::kTime},
           {"1995", "", "nineteen ninety five", false, SpokenKind::kOther},
       }) {
    auto r = read_spoken_number(c.core, c.next);
    ASSERT_TRUE(r) << c.core;
    EXPECT_EQ(r->words, c.words) << c.core;
    EXPECT_EQ(r->took_next, c.took_next) << c.core;
    EXPECT_EQ(r->kind, c.kind) << c.core;
  }
}

TEST(SpokenNumber, LeavesWhatNoClassReadsWhole) {
  std::string too_long = "1";  // one septillion, grouped: past the sextillions read
  for (int i = 0; i < 8; ++i) too_long += ",000";
  for (std::string_view core :
       {std::string_view(), std::string_view("cats"), std::string_view("5kg"),
        std::string_view("1,00"), std::string_view("1.2.3"), std::string_view("2-5"),
        std::string_view("21th"), std::string_view("25:00"), std::string_view("$"),
        std::string_view("-"), std::string_view("00.5"), std::string_view("\u00a55.50"),
        std::string_view(too_long)}) {
    EXPECT_FALSE(read_spoken_number(core, "")) << core;
  }
}

}  // namespace
}  // namespace winnow::testing
