#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/utf8.h"
#include "models/onnx_test_models.h"
#include "models/unigram_test_models.h"
#include "models/wordpiece_test_models.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "stages/models/classifier_presets.h"

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
  // Presets: an unknown name; a classifier preset on a regressor.
  auto unknown_preset = build_stage(
      classify_spec(), {{"model", dir_->file("classifier")}, {"preset", std::string("toxicity")}},
      context);
  ASSERT_FALSE(unknown_preset.is_ok());
  EXPECT_THAT(unknown_preset.status().message(), HasSubstr("'toxicity' is not a preset"));
  auto mismatch = build_stage(
      classify_spec(), {{"model", dir_->file("regressor")}, {"preset", std::string("quality")}},
      context);
  ASSERT_FALSE(mismatch.is_ok());
  EXPECT_THAT(mismatch.status().message(), HasSubstr("preset quality is a classifier"));
}

// NeMo's FineWeb-Edu outputs under their names: the label by score >= 2.5, the float score
// clamped to [0, 5], the int score; keep_labels filters on the label as NeMo's filter_by does.
TEST_F(ClassifyTest, FineWebEduPresetGivesNemosOutputs) {
  ReasonTable reasons;
  auto batch = run({{"model", dir_->file("regressor")},
                    {"preset", std::string("FineWebEduClassifier")},
                    // The fixture's reference is at 40 tokens (the model has 64 positions).
                    {"max_tokens", int64_t{40}},
                    {"keep_labels", std::vector<std::string>{"high_quality"}}},
                   reasons);
  const AnnotationColumn* labels = batch->find_annotation("fineweb-edu-score-label");
  const AnnotationColumn* floats = batch->find_annotation("fineweb-edu-score-float");
  const AnnotationColumn* ints = batch->find_annotation("fineweb-edu-score-int");
  ASSERT_TRUE(labels && floats && ints);
  std::set<std::string> seen;
  for (size_t d = 0; d < texts_->size(); ++d) {
    double score = (*regressor_)[d].at("logits")[0];
    std::string label = score >= 2.5 ? "high_quality" : "low_quality";
    EXPECT_EQ(labels->string_at(d), label) << score;
    EXPECT_NEAR(floats->float_at(d), std::clamp(score, 0.0, 5.0), 1e-4);
    if (std::fabs(std::fabs(score - std::floor(score)) - 0.5) > 1e-3) {
      EXPECT_EQ(ints->int_at(d), std::lround(std::clamp(score, 0.0, 5.0))) << score;
    }
    EXPECT_EQ(batch->kept(d), label == "high_quality");
    seen.insert(label);
  }
  EXPECT_EQ(seen.size(), 2u);
}

// The domain preset on a DeBERTa-style model folder (a Unigram tokenizer.json, a config.json
// without id2label), given only the folder: texts cut to NeMo's 2,000 characters, then to 512
// tokens, NeMo's 26 domain labels, the label in domain_pred. Reference: HF's ids of the cut
// texts (under node) through numpy.
TEST(ClassifyPresets, DomainPresetOnADebertaStyleFolder) {
  TempDir dir;
  std::string folder = dir.file("deberta");
  build_bert_model(folder,
                   "--head classifier --labels 26 --seed 41 --vocab 3000 "
                   "--max-positions 512");
  std::filesystem::copy_file(deberta_style_tokenizer(dir), folder + "/tokenizer.json");
  std::string out;
  ASSERT_EQ(run_command("/usr/bin/python3 -c \"import json,sys; c=json.load(open(sys.argv[1])); "
                        "del c['id2label']; json.dump(c, open(sys.argv[1], 'w'))\" " +
                            folder + "/config.json",
                        &out),
            0)
      << out;
  // Long texts (24 paragraphs of the Debian Reference: English and German, French and
  // Spanish, Italian and Portuguese, Japanese and Chinese) and short ones (a paragraph).
  std::vector<std::string> paragraphs = multilingual_paragraphs(12), texts;
  for (size_t i = 0; i + 24 <= 8 * 12; i += 24) {
    std::string joined;
    for (size_t k = i; k < i + 24; ++k) joined += paragraphs[k] + "\n\n";
    texts.push_back(joined);
    texts.push_back(paragraphs[i]);
  }
  std::vector<std::string> cut;
  size_t cut_count = 0;
  for (const std::string& text : texts) {
    size_t bytes = 0, points = 0;
    while (bytes < text.size() && points < 2000) {
      ++bytes;
      while (bytes < text.size() && is_utf8_continuation(text[bytes])) ++bytes;
      ++points;
    }
    cut_count += bytes < text.size();
    cut.push_back(text.substr(0, bytes));
  }
  EXPECT_EQ(cut_count, 4u);
  std::vector<std::vector<int64_t>> ids =
      hf_reference_ids(dir.path(), folder + "/tokenizer.json", cut);
  size_t truncated = 0;
  for (auto& row : ids) {
    if (row.size() > 512) {
      row.resize(511);
      row.push_back(2);  // [SEP]
      ++truncated;
    }
  }
  EXPECT_GE(truncated, 1u);
  ReferenceOutputs reference = reference_outputs(folder, ids);

  ReasonTable reasons;
  StageContext context(reasons, "domains", 0, 42);
  auto stage =
      build_stage(classify_spec(), {{"model", folder}, {"preset", std::string("domain")}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = make_text_batch(texts);
  ASSERT_TRUE(stage.value()->process(*batch).is_ok());
  const AnnotationColumn* labels = batch->find_annotation("domain_pred");
  const AnnotationColumn* scores = batch->find_annotation("domain_pred_score");
  ASSERT_TRUE(labels && scores);
  const char* domains[] = {"Adult", "Arts_and_Entertainment", "Autos_and_Vehicles"};
  for (size_t d = 0; d < texts.size(); ++d) {
    const std::vector<double>& logits = reference[d].at("logits");
    size_t top = std::max_element(logits.begin(), logits.end()) - logits.begin();
    double sum = 0;
    for (double l : logits) sum += std::exp(l - logits[top]);
    EXPECT_NEAR(scores->float_at(d), 1.0 / sum, 1e-4) << d;
    EXPECT_EQ(labels->string_at(d), find_classifier_preset("domain")->labels[top]) << d;
    if (top < 3) {
      EXPECT_EQ(labels->string_at(d), domains[top]);
    }
  }
}

}  // namespace
}  // namespace winnow::testing
