#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "models/onnx_test_models.h"
#include "models/wordpiece_test_models.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

// A 3-label classifier and a regressor (seeded BERTs with heads) sharing a WordPiece
// tokenizer; reference logits from HF's ids through numpy.
class ClassifyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    texts_ = new std::vector<std::string>(multilingual_paragraphs(5));
    std::vector<std::string> vocabulary = vocabulary_from(*texts_);
    std::string json = wordpiece_json(vocabulary, {.lowercase = true, .truncation = 40});
    std::string vocab = " --vocab " + std::to_string(vocabulary.size() + 5);
    std::string classifier = "--head classifier --labels 3 --seed 21" + vocab;
    std::string regressor = "--head regression --seed 22" + vocab;
    build_bert_model(dir_->file("classifier"), classifier);
    build_bert_model(dir_->file("regressor"), regressor);
    build_bert_model(dir_->file("encoder"), "--seed 23" + vocab);
    for (const char* name : {"classifier", "regressor", "encoder"}) {
      write_file(dir_->file(name) + "/tokenizer.json", json);
    }
    auto ids = hf_reference_ids(dir_->path(), dir_->file("classifier/tokenizer.json"), *texts_);
    // Random heads give most texts one label and one score: shift the heads' biases so each
    // label's mean logit is 0 and the mean score 2.5 on these texts, then build them again.
    for (const auto& [name, options, centre] :
         {std::tuple{"classifier", classifier, 0.0}, std::tuple{"regressor", regressor, 2.5}}) {
      ReferenceOutputs first = reference_outputs(dir_->file(name), ids);
      std::vector<double> mean(first[0].at("logits").size(), 0.0);
      for (const auto& doc : first) {
        for (size_t j = 0; j < mean.size(); ++j) mean[j] += doc.at("logits")[j] / first.size();
      }
      std::string shift;
      for (double m : mean) shift += (shift.empty() ? "" : ",") + std::to_string(centre - m);
      build_bert_model(dir_->file(name), options + " --logit-shift=" + shift);
    }
    classifier_ = new ReferenceOutputs(reference_outputs(dir_->file("classifier"), ids));
    regressor_ = new ReferenceOutputs(reference_outputs(dir_->file("regressor"), ids));
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete texts_;
    delete classifier_;
    delete regressor_;
  }
  static std::unique_ptr<DocBatch> run(const std::map<std::string, StageParams::Value>& values,
                                       ReasonTable& reasons) {
    StageContext context(reasons, "quality", 0, 42);
    auto stage = build_stage(classify_spec(), values, context);
    if (!stage.is_ok()) throw std::runtime_error(stage.status().message());
    auto batch = make_text_batch(*texts_);
    Status status = stage.value()->process(*batch);
    if (!status.is_ok()) throw std::runtime_error(status.message());
    return batch;
  }
  static TempDir* dir_;
  static std::vector<std::string>* texts_;
  static ReferenceOutputs* classifier_;
  static ReferenceOutputs* regressor_;
};
TempDir* ClassifyTest::dir_ = nullptr;
std::vector<std::string>* ClassifyTest::texts_ = nullptr;
ReferenceOutputs* ClassifyTest::classifier_ = nullptr;
ReferenceOutputs* ClassifyTest::regressor_ = nullptr;

TEST_F(ClassifyTest, LabelsAndProbabilitiesMatchTheReference) {
  ReasonTable reasons;
  auto batch = run({{"model", dir_->file("classifier")}}, reasons);
  const AnnotationColumn* labels = batch->find_annotation("quality");
  const AnnotationColumn* scores = batch->find_annotation("quality_score");
  ASSERT_TRUE(labels && scores);
  std::set<std::string> seen;
  for (size_t d = 0; d < texts_->size(); ++d) {
    const std::vector<double>& logits = (*classifier_)[d].at("logits");
    size_t top = std::max_element(logits.begin(), logits.end()) - logits.begin();
    double sum = 0;
    for (double l : logits) sum += std::exp(l - logits[top]);
    EXPECT_EQ(labels->string_at(d), "label_" + std::to_string(top)) << d;
    EXPECT_NEAR(scores->float_at(d), 1.0 / sum, 1e-4) << d;
    EXPECT_TRUE(batch->kept(d));
    seen.insert(labels->string_at(d));
  }
  EXPECT_EQ(seen.size(), 3u);
}

TEST_F(ClassifyTest, KeepLabelsAndMinScoreFilter) {
  ReasonTable reasons;
  auto batch = run({{"model", dir_->file("classifier")},
                    {"keep_labels", std::vector<std::string>{"label_0", "label_2"}},
                    {"min_score", 0.6}},
                   reasons);
  const AnnotationColumn* labels = batch->find_annotation("quality");
  const AnnotationColumn* scores = batch->find_annotation("quality_score");
  for (size_t d = 0; d < texts_->size(); ++d) {
    std::string expected = labels->string_at(d) == "label_1" ? "quality/other_label"
                           : scores->float_at(d) < 0.6       ? "quality/low_score"
                                                             : "kept";
    EXPECT_EQ(reason_of(*batch, reasons, d), expected) << d;
  }
}

// NeMo's FineWeb-Edu mapping on the regression head: int_score = round(clamp(score, 0, 5)).
TEST_F(ClassifyTest, RegressionScoresAndFineWebEduIntScores) {
  ReasonTable reasons;
  auto batch = run({{"model", dir_->file("regressor")}, {"min_score", 1.0}}, reasons);
  const AnnotationColumn* scores = batch->find_annotation("quality_score");
  const AnnotationColumn* ints = batch->find_annotation("quality_int_score");
  ASSERT_TRUE(scores && ints);
  EXPECT_EQ(batch->find_annotation("quality"), nullptr);
  std::set<int64_t> int_scores;
  for (size_t d = 0; d < texts_->size(); ++d) {
    double expected = (*regressor_)[d].at("logits")[0];
    EXPECT_NEAR(scores->float_at(d), expected, 1e-4) << d;
    if (std::fabs(std::fabs(expected - std::floor(expected)) - 0.5) > 1e-3) {
      EXPECT_EQ(ints->int_at(d), std::lround(std::clamp(expected, 0.0, 5.0))) << expected;
    }
    int_scores.insert(ints->int_at(d));
    EXPECT_EQ(batch->kept(d), expected >= 1.0) << expected;
  }
  EXPECT_GE(int_scores.size(), 3u);
}

TEST_F(ClassifyTest, BadParametersAndModelsAreErrors) {
  ReasonTable reasons;
  StageContext context(reasons, "quality", 0, 42);
  auto unknown = build_stage(
      classify_spec(),
      {{"model", dir_->file("classifier")}, {"keep_labels", std::vector<std::string>{"label_9"}}},
      context);
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("'label_9' is not a label of the model"));
  auto encoder = build_stage(classify_spec(), {{"model", dir_->file("encoder")}}, context);
  ASSERT_FALSE(encoder.is_ok());
  EXPECT_THAT(encoder.status().message(), HasSubstr("no float output logits"));
  auto missing = build_stage(classify_spec(), {{"model", dir_->file("nowhere")}}, context);
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("'model'"));
}

}  // namespace
}  // namespace winnow::testing
