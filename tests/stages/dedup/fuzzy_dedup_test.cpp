// The exact_dedup and fuzzy_dedup stages: parameter checks, and identify-then-process on a
// batch (the pipeline's passes are tested in tests/pipeline and tests/cli).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow {
namespace {

using testing::build_stage;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class DedupStageTest : public ::testing::Test {
 protected:
  Status error_of(const StageSpec& spec, const std::map<std::string, StageParams::Value>& v) {
    auto stage = build_stage(spec, v, context_);
    return stage.is_ok() ? Status::ok() : stage.status();
  }
  // Runs the identify pass over `batch` and then the stage's process() on it.
  void identify_and_process(Stage& stage, DocBatch& batch) {
    GlobalStep* step = stage.global_step();
    ASSERT_NE(step, nullptr);
    ASSERT_TRUE(step->begin_identify({dir_.path(), dir_.file("spill"), 2}).is_ok());
    do {
      ASSERT_TRUE(step->observe(batch).is_ok());
    } while (step->another_pass());
    Status s = step->finish_identify();
    ASSERT_TRUE(s.is_ok()) << s.message();
    ASSERT_TRUE(stage.process(batch).is_ok());
  }

  testing::TempDir dir_;
  ReasonTable reasons_;
  StageContext context_{reasons_, "fuzzy", 0, 42};
};

TEST_F(DedupStageTest, ParametersAreChecked) {
  const StageSpec fuzzy = fuzzy_dedup_spec();
  EXPECT_THAT(error_of(fuzzy, {{"preset", std::string("dolma")}}).message(),
              HasSubstr("parameter 'preset': must be nemo or fineweb"));
  EXPECT_THAT(error_of(fuzzy, {{"shingles", std::string("bytes")}}).message(),
              HasSubstr("parameter 'shingles'"));
  EXPECT_THAT(error_of(fuzzy, {{"bands", int64_t{0}}}).message(), HasSubstr("'bands'"));
  EXPECT_THAT(error_of(fuzzy, {{"rows", int64_t{5000}}}).message(), HasSubstr("'rows'"));
  EXPECT_THAT(error_of(fuzzy, {{"survivor", std::string("field")}}).message(),
              HasSubstr("'survivor_field': is required"));
  EXPECT_THAT(error_of(fuzzy, {{"survivor_field", std::string("q")}}).message(),
              HasSubstr("only used with survivor: field"));
  EXPECT_THAT(error_of(fuzzy, {{"memory_mb", int64_t{0}}}).message(), HasSubstr("'memory_mb'"));
  EXPECT_THAT(error_of(fuzzy, {{"table_format", std::string("csv")}}).message(),
              HasSubstr("'table_format'"));
  EXPECT_THAT(error_of(fuzzy, {{"jaccard_threshold", 1.5}}).message(),
              HasSubstr("'jaccard_threshold'"));
  EXPECT_TRUE(error_of(fuzzy, {{"preset", std::string("fineweb")}, {"bands", int64_t{9}}}).is_ok());
}

TEST_F(DedupStageTest, ExactDedupKeepsTheFirstOfEachGroup) {
  auto stage = build_stage(exact_dedup_spec(), {{"normalize", true}}, context_);
  ASSERT_TRUE(stage.is_ok());
  auto batch = testing::make_text_batch(
      {"Hello  World", "other", "hello world", "HELLO WORLD\n", "other", "unique"});
  identify_and_process(**stage, *batch);
  EXPECT_THAT(testing::reasons_of(*batch, reasons_),
              ElementsAre("kept", "kept", "fuzzy/exact_duplicate", "fuzzy/exact_duplicate",
                          "fuzzy/exact_duplicate", "kept"));
  const AnnotationColumn* component = batch->find_annotation("fuzzy_component");
  ASSERT_NE(component, nullptr);
  EXPECT_EQ(component->int_at(2), 0);  // DocKey of row 0
  EXPECT_EQ(component->int_at(4), 1);
  EXPECT_FALSE(component->has(0));
}

TEST_F(DedupStageTest, FuzzySurvivorByFieldLongestOrFirst) {
  std::string base(400, ' ');
  for (size_t i = 0; i < base.size(); ++i) base[i] = "abcdefghij klmnop"[(i * 7 + i / 13) % 17];
  std::string near = base;
  near[200] = 'X';
  std::string longer = base + " and a tail";
  std::vector<testing::TestDoc> docs = {{base, "{\"q\": 1}"},
                                        {near, "{\"q\": 5}"},
                                        {longer, "{\"q\": 3}"},
                                        {"something else entirely, not similar at all", "{}"}};
  struct Case {
    std::map<std::string, StageParams::Value> params;
    size_t survivor;
  };
  std::vector<Case> cases = {
      {{}, 0},
      {{{"survivor", std::string("longest")}}, 2},
      {{{"survivor", std::string("field")}, {"survivor_field", std::string("q")}}, 1},
  };
  for (const Case& c : cases) {
    ReasonTable reasons;
    StageContext context{reasons, "fuzzy", 0, 42};
    auto stage = build_stage(fuzzy_dedup_spec(), c.params, context);
    ASSERT_TRUE(stage.is_ok()) << stage.status().message();
    auto batch = testing::make_batch(docs);
    identify_and_process(**stage, *batch);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(batch->kept(i), i == c.survivor) << "doc " << i << ", survivor " << c.survivor;
    }
    EXPECT_TRUE(batch->kept(3));
  }
}

}  // namespace
}  // namespace winnow
