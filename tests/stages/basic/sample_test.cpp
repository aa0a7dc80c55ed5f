#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow {
namespace {

using testing::build_stage;
using ::testing::HasSubstr;
using testing::make_batch;
using testing::TestDoc;

using Values = std::map<std::string, StageParams::Value>;

std::unique_ptr<DocBatch> empty_docs(size_t n, uint32_t shard = 0, uint64_t first_row = 0) {
  return make_batch(std::vector<TestDoc>(n), shard, first_row);
}

// Runs a sample stage over rows [0, total) of shard 0, cut into batches of the given sizes
// (cycled), and returns the rows it kept.
std::set<uint64_t> kept_rows(Stage& stage, uint64_t total, const std::vector<uint64_t>& sizes) {
  std::set<uint64_t> kept;
  uint64_t row = 0;
  for (size_t b = 0; row < total; ++b) {
    uint64_t n = std::min<uint64_t>(sizes[b % sizes.size()], total - row);
    auto batch = empty_docs(n, 0, row);
    EXPECT_TRUE(stage.process(*batch).is_ok());
    for (size_t i = 0; i < batch->size(); ++i) {
      if (batch->kept(i)) kept.insert(batch->key(i).row());
    }
    row += n;
  }
  return kept;
}

class SampleTest : public ::testing::Test {
 protected:
  std::unique_ptr<Stage> make(const Values& values, const std::string& name = "smp",
                              uint64_t pipeline_seed = 42) {
    contexts_.push_back(std::make_unique<StageContext>(reasons_, name, 0, pipeline_seed));
    auto stage = build_stage(sample_spec(), values, *contexts_.back());
    EXPECT_TRUE(stage.is_ok()) << stage.status().message();
    return stage.is_ok() ? std::move(stage).value() : nullptr;
  }
  Status make_error(const Values& values) {
    StageContext context(reasons_, "smp", 0, 42);
    auto stage = build_stage(sample_spec(), values, context);
    return stage.is_ok() ? Status::ok() : stage.status();
  }

  ReasonTable reasons_;
  std::vector<std::unique_ptr<StageContext>> contexts_;
};

TEST_F(SampleTest, FractionZeroKeepsNone) {
  auto stage = make({{"fraction", 0.0}});
  ASSERT_NE(stage, nullptr);
  EXPECT_TRUE(kept_rows(*stage, 2000, {500}).empty());
}

TEST_F(SampleTest, FractionOneKeepsAll) {
  auto stage = make({{"fraction", 1.0}});
  ASSERT_NE(stage, nullptr);
  EXPECT_EQ(kept_rows(*stage, 2000, {500}).size(), 2000u);
}

TEST_F(SampleTest, FractionIsMetOverManyDocuments) {
  auto stage = make({{"fraction", 0.3}});
  ASSERT_NE(stage, nullptr);
  size_t kept = kept_rows(*stage, 20000, {1024}).size();
  EXPECT_GE(kept, 20000 * (0.3 - 0.015));
  EXPECT_LE(kept, 20000 * (0.3 + 0.015));
}

TEST_F(SampleTest, DroppedDocumentsCarryReasonAndDraw) {
  auto stage = make({{"fraction", 0.5}});
  ASSERT_NE(stage, nullptr);
  auto batch = empty_docs(200);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  size_t dropped = 0;
  for (size_t i = 0; i < batch->size(); ++i) {
    if (batch->kept(i)) continue;
    ++dropped;
    EXPECT_EQ(reasons_.at(batch->drop_reason(i)).qualified(), "smp/not_sampled");
    EXPECT_GE(batch->drop_score(i), 0.5);  // the draw, which was not under the fraction
    EXPECT_LT(batch->drop_score(i), 1.0);
  }
  EXPECT_GT(dropped, 0u);
  EXPECT_LT(dropped, 200u);
}

TEST_F(SampleTest, SameKeysSameDecisionWhateverTheBatchSplit) {
  auto stage = make({{"fraction", 0.3}});
  ASSERT_NE(stage, nullptr);
  std::set<uint64_t> whole = kept_rows(*stage, 5000, {5000});
  EXPECT_EQ(whole, kept_rows(*stage, 5000, {1}));
  EXPECT_EQ(whole, kept_rows(*stage, 5000, {7, 1000, 3, 64}));
  // And a second stage built the same way agrees.
  auto again = make({{"fraction", 0.3}});
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(whole, kept_rows(*again, 5000, {333}));
}

TEST_F(SampleTest, DecisionDependsOnTheKeyNotThePosition) {
  auto stage = make({{"fraction", 0.5}});
  ASSERT_NE(stage, nullptr);
  auto forward = empty_docs(100, 3, 1000);
  ASSERT_TRUE(stage->process(*forward).is_ok());
  // The same keys, one at a time, in reverse order.
  for (size_t i = 100; i-- > 0;) {
    auto single = empty_docs(1, 3, 1000 + i);
    ASSERT_TRUE(stage->process(*single).is_ok());
    EXPECT_EQ(single->kept(0), forward->kept(i)) << "row " << 1000 + i;
  }
}

TEST_F(SampleTest, DifferentSeedsDiffer) {
  auto a = make({{"fraction", 0.3}, {"seed", int64_t{1}}});
  auto b = make({{"fraction", 0.3}, {"seed", int64_t{2}}});
  auto a2 = make({{"fraction", 0.3}, {"seed", int64_t{1}}});
  ASSERT_TRUE(a && b && a2);
  std::set<uint64_t> kept_a = kept_rows(*a, 5000, {1000});
  std::set<uint64_t> kept_b = kept_rows(*b, 5000, {1000});
  EXPECT_NE(kept_a, kept_b);
  EXPECT_EQ(kept_a, kept_rows(*a2, 5000, {1000}));
  // Independent draws overlap by about 0.3 * 0.3, far from identical.
  size_t both = 0;
  for (uint64_t row : kept_a) both += kept_b.count(row);
  EXPECT_LT(both, kept_a.size() * 6 / 10);
}

TEST_F(SampleTest, PipelineSeedIsUsedWithoutASeedParameter) {
  auto seed_1 = make({{"fraction", 0.3}}, "smp", 1);
  auto seed_2 = make({{"fraction", 0.3}}, "smp", 2);
  auto seed_1_again = make({{"fraction", 0.3}}, "smp", 1);
  ASSERT_TRUE(seed_1 && seed_2 && seed_1_again);
  std::set<uint64_t> kept_1 = kept_rows(*seed_1, 5000, {1000});
  EXPECT_NE(kept_1, kept_rows(*seed_2, 5000, {1000}));
  EXPECT_EQ(kept_1, kept_rows(*seed_1_again, 5000, {1000}));
}

TEST_F(SampleTest, StagesWithDifferentNamesDrawIndependently) {
  auto first = make({{"fraction", 0.3}, {"seed", int64_t{5}}}, "first");
  auto second = make({{"fraction", 0.3}, {"seed", int64_t{5}}}, "second");
  ASSERT_TRUE(first && second);
  EXPECT_NE(kept_rows(*first, 5000, {1000}), kept_rows(*second, 5000, {1000}));
}

TEST_F(SampleTest, AlreadyDroppedDocumentsAreLeftAlone) {
  auto stage = make({{"fraction", 1.0}});
  ASSERT_NE(stage, nullptr);
  auto batch = empty_docs(3);
  ReasonId earlier = reasons_.add("earlier", 0, "gone");
  batch->drop(1, earlier, 0.25);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_TRUE(batch->kept(0));
  EXPECT_EQ(batch->drop_reason(1), earlier);
  EXPECT_EQ(batch->drop_score(1), 0.25);
  EXPECT_TRUE(batch->kept(2));

  auto none = make({{"fraction", 0.0}}, "none");
  ASSERT_NE(none, nullptr);
  ASSERT_TRUE(none->process(*batch).is_ok());
  EXPECT_EQ(batch->drop_reason(1), earlier);
  EXPECT_EQ(reasons_.at(batch->drop_reason(0)).qualified(), "none/not_sampled");
}

TEST_F(SampleTest, FractionOutOfRangeIsRejected) {
  for (double fraction : {-0.01, 1.01, 2.0, std::numeric_limits<double>::quiet_NaN()}) {
    Status status = make_error({{"fraction", fraction}});
    ASSERT_FALSE(status.is_ok()) << fraction;
    EXPECT_THAT(status.message(), HasSubstr("'fraction'"));
  }
}

TEST_F(SampleTest, FractionIsRequired) {
  Status status = make_error({});
  ASSERT_FALSE(status.is_ok());
  EXPECT_THAT(status.message(), HasSubstr("missing required parameter 'fraction'"));
}

}  // namespace
}  // namespace winnow
