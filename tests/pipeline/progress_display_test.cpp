#include "pipeline/progress_display.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace winnow {
namespace {

using ::testing::HasSubstr;

RunSample sample() {
  RunSample s;
  s.t = 10;
  s.documents_done = 5000;
  s.input_bytes = 50'000'000;
  s.compressed_bytes = 25'000'000;  // of 100 MB: a quarter in 10 s, 30 s left
  StepSample read, embed;
  read.target = read.ready = 1;
  read.busy_fraction = 0.2;
  read.input_fill = 0.5;
  read.docs_per_s = 500;
  embed.target = 3;
  embed.ready = 2;
  embed.starting = 1;
  embed.busy_fraction = 0.995;
  embed.input_fill = 1.0;
  embed.input_queue = 4;
  embed.input_capacity = 4;
  embed.docs_per_s = 498;
  embed.mean_service_ms = 20;
  s.steps = {read, embed};
  return s;
}

TEST(ProgressDisplay, TerminalBlockShowsOverallProgressAndOneLinePerStep) {
  ProgressDisplay display(100'000'000, {"read", "embed"}, true);
  std::string block = display.render(sample(), true);
  EXPECT_THAT(block, HasSubstr("5000 docs"));
  EXPECT_THAT(block, HasSubstr("50.0 MB read (25%)"));
  EXPECT_THAT(block, HasSubstr("ETA 0:30"));
  EXPECT_THAT(block, HasSubstr("embed"));
  EXPECT_THAT(block, HasSubstr("2+1"));                        // two ready, one starting
  EXPECT_THAT(block, HasSubstr("100%"));                       // busy, rounded
  EXPECT_THAT(block, HasSubstr("########"));                   // a full input queue
  EXPECT_EQ(std::count(block.begin(), block.end(), '\n'), 4);  // header, titles, two steps
}

TEST(ProgressDisplay, LogLineForNonTerminals) {
  ProgressDisplay display(100'000'000, {"read", "embed"}, false);
  std::string line = display.render(sample(), false);
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1);
  EXPECT_THAT(line, HasSubstr("| embed w=3 busy=100% q=4/4 498 docs/s"));
  EXPECT_EQ(line.find('\033'), std::string::npos);  // no terminal escapes in a log
}

TEST(ProgressDisplay, NamesThePassWhenThereAreSeveral) {
  ProgressDisplay display(100'000'000, {"read", "embed"}, false);
  EXPECT_THAT(display.render(sample(), false), ::testing::StartsWith("[winnow] "));
  display.set_pass("identify exact_dedup");
  EXPECT_THAT(display.render(sample(), false),
              ::testing::StartsWith("[winnow identify exact_dedup] "));
  EXPECT_THAT(display.render(sample(), true),
              ::testing::StartsWith("[winnow identify exact_dedup] "));
}

}  // namespace
}  // namespace winnow
