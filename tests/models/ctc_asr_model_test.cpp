// greedy_ctc on hand-written scores (NeMo's GreedyCTCInfer rule: the first best class per
// frame, repeats collapsed, blanks dropped, a blank between two equal tokens keeping both).
#include "models/ctc_asr_model.h"

#include <gtest/gtest.h>

namespace winnow::testing {
namespace {

// Scores with one best class per frame (3 classes, blank 2).
std::vector<float> one_hot(const std::vector<int>& best) {
  std::vector<float> scores;
  for (int b : best) {
    for (int c = 0; c < 3; ++c) scores.push_back(c == b ? 0.0f : -5.0f);
  }
  return scores;
}

TEST(CtcAsrModel, GreedyCollapsesRepeatsAndDropsBlanks) {
  EXPECT_EQ(greedy_ctc(one_hot({0, 0, 2, 0, 1, 1, 2, 2, 1}), 9, 3, 2),
            (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(greedy_ctc(one_hot({2, 2, 2}), 3, 3, 2), std::vector<int>{});
  EXPECT_EQ(greedy_ctc(one_hot({1, 0, 1}), 2, 3, 2), (std::vector<int>{1, 0}));  // frames counted
  const std::vector<float> tie = {-1.0f, -1.0f, -3.0f};  // the first best wins, as argmax
  EXPECT_EQ(greedy_ctc(tie, 1, 3, 2), std::vector<int>{0});
}

// NeMo's encoders give ceil(n / 2) frames per stride-2 stage: 9 frames at 8x give 2, which
// the ratio (4.5) alone would not tell from 4x or 5x.
TEST(CtcAsrModel, SubsamplingIsReadOffTheOutput) {
  EXPECT_EQ(subsampling_of(9, 2), 8);
  EXPECT_EQ(subsampling_of(9, 5), 2);
  EXPECT_EQ(subsampling_of(1000, 250), 4);
  EXPECT_EQ(subsampling_of(1001, 126), 8);
  EXPECT_EQ(subsampling_of(7, 7), 1);
  EXPECT_EQ(subsampling_of(300, 100), 3);  // no power of two fits: the ratio
}

}  // namespace
}  // namespace winnow::testing
