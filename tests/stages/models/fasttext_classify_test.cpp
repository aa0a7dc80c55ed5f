#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "stages/filter_test_support.h"
#include "stages/builtin_stages.h"
#include "models/fasttext_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

class FastTextClassify : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    model_ = new std::string(train_quality_model(*dir_));
  }
  static void TearDownTestSuite() {
    delete model_;
    delete dir_;
  }
  static TempDir* dir_;
  static std::string* model_;
};
TempDir* FastTextClassify::dir_ = nullptr;
std::string* FastTextClassify::model_ = nullptr;

TEST_F(FastTextClassify, AnnotatesTopLabelAndEveryScore) {
  std::mt19937 rng(3);
  auto batch = make_text_batch({quality_text(true, rng), quality_text(false, rng)});
  ReasonTable reasons;
  StageContext context(reasons, "quality", 0, 42);
  auto stage =
      build_stage(fasttext_classify_spec(), {{"model", *model_}, {"all_scores", true}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  ASSERT_TRUE(stage.value()->process(*batch).is_ok());
  const AnnotationColumn* label = batch->find_annotation("quality");
  const AnnotationColumn* score = batch->find_annotation("quality_score");
  const AnnotationColumn* hq = batch->find_annotation("quality_hq");
  const AnnotationColumn* lq = batch->find_annotation("quality_lq");
  ASSERT_TRUE(label && score && hq && lq);
  EXPECT_EQ(label->string_at(0), "hq");
  EXPECT_EQ(label->string_at(1), "lq");
  EXPECT_GT(score->float_at(0), 0.9);
  EXPECT_DOUBLE_EQ(score->float_at(0), hq->float_at(0));
  EXPECT_DOUBLE_EQ(score->float_at(1), lq->float_at(1));
  EXPECT_NEAR(hq->float_at(1) + lq->float_at(1), 1.0, 1e-3);
  EXPECT_EQ(batch->kept_count(), 2u);  // no keep rule
}

TEST_F(FastTextClassify, KeepRuleOnALabel) {
  std::mt19937 rng(4);
  std::vector<std::string> texts;
  for (int i = 0; i < 20; ++i) texts.push_back(quality_text(i % 2 == 0, rng));
  auto batch = make_text_batch(texts);
  ReasonTable reasons;
  StageContext context(reasons, "cls", 0, 42);
  auto stage = build_stage(fasttext_classify_spec(),
                           {{"model", *model_},
                            {"keep_label", std::string("hq")},
                            {"min_score", 0.8},
                            {"field", std::string("q")}},
                           context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  ASSERT_TRUE(stage.value()->process(*batch).is_ok());
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(reason_of(*batch, reasons, i), i % 2 == 0 ? "kept" : "cls/low_score") << i;
  }
  ASSERT_NE(batch->find_annotation("q"), nullptr);
  EXPECT_LT(batch->drop_score(1), 0.8);
}

TEST_F(FastTextClassify, ConfigErrors) {
  ReasonTable reasons;
  StageContext context(reasons, "cls", 0, 42);
  auto error = [&](const std::map<std::string, StageParams::Value>& params) {
    auto stage = build_stage(fasttext_classify_spec(), params, context);
    EXPECT_FALSE(stage.is_ok());
    return stage.is_ok() ? std::string() : stage.status().message();
  };
  std::string missing = error({{"model", dir_->file("missing.bin")}});
  EXPECT_THAT(missing, HasSubstr("'cls'"));
  EXPECT_THAT(missing, HasSubstr("'model'"));
  EXPECT_THAT(missing, HasSubstr(dir_->file("missing.bin")));
  EXPECT_THAT(error({}), HasSubstr("model"));
  std::string label = error({{"model", *model_}, {"keep_label", std::string("__label__good")}});
  EXPECT_THAT(label, HasSubstr("'keep_label'"));
  EXPECT_THAT(label, HasSubstr("hq"));
  EXPECT_THAT(error({{"model", *model_}, {"min_score", 0.3}}), HasSubstr("without keep_label"));
}

}  // namespace
}  // namespace winnow::testing
