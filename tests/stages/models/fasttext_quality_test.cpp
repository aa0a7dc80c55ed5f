#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "stages/filter_test_support.h"
#include "stages/builtin_stages.h"
#include "models/fasttext_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

class FastTextQuality : public ::testing::Test {
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
TempDir* FastTextQuality::dir_ = nullptr;
std::string* FastTextQuality::model_ = nullptr;

std::vector<std::string> mixed_texts(int n) {
  std::mt19937 rng(11);
  std::vector<std::string> texts;
  for (int i = 0; i < n; ++i) texts.push_back(quality_text(i % 2 == 0, rng));
  return texts;
}

// Decisions of one stage over `texts` split into batches of `batch_size`, processed by
// `threads` workers at once.
std::vector<std::string> decide(const std::string& model, const std::vector<std::string>& texts,
                                size_t batch_size, int threads, uint64_t seed = 42) {
  ReasonTable reasons;
  StageContext context(reasons, "quality", 0, seed);
  auto stage = build_stage(fasttext_quality_spec(), {{"model", model}}, context);
  if (!stage.is_ok()) throw std::runtime_error(stage.status().message());
  std::vector<std::unique_ptr<DocBatch>> batches;
  for (size_t start = 0; start < texts.size(); start += batch_size) {
    std::vector<TestDoc> docs;
    for (size_t i = start; i < std::min(texts.size(), start + batch_size); ++i) {
      docs.push_back({texts[i]});
    }
    batches.push_back(make_batch(docs, 0, start));
  }
  std::vector<std::thread> workers;
  std::atomic<size_t> next{0};
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      for (size_t b; (b = next++) < batches.size();) {
        EXPECT_TRUE(stage.value()->process(*batches[b]).is_ok());
      }
    });
  }
  for (auto& w : workers) w.join();
  std::vector<std::string> out;
  for (const auto& batch : batches) {
    for (const auto& reason : reasons_of(*batch, reasons)) out.push_back(reason);
  }
  return out;
}

TEST_F(FastTextQuality, KeepsGoodTextAndSamplesPoorTextAsNeMo) {
  std::vector<std::string> texts = mixed_texts(4000);
  auto batch = make_text_batch(texts);
  ReasonTable reasons;
  StageContext context(reasons, "quality", 0, 42);
  auto stage = build_stage(fasttext_quality_spec(), {{"model", *model_}}, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  ASSERT_TRUE(stage.value()->process(*batch).is_ok());
  const AnnotationColumn* score = batch->find_annotation("quality");
  ASSERT_NE(score, nullptr);
  // A document is kept with probability (2 - P)^-3 under NeMo's rule; compare the observed
  // keep rate of each class with that expectation.
  double expected[2] = {0, 0}, kept[2] = {0, 0}, count[2] = {0, 0};
  for (size_t i = 0; i < texts.size(); ++i) {
    int high = i % 2 == 0;
    double p = score->float_at(i);
    if (high) {
      EXPECT_GT(p, 0.9) << i;
    } else {
      EXPECT_LT(p, 0.1) << i;
    }
    expected[high] += std::pow(2.0 - std::min(p, 1.0), -3.0);
    kept[high] += batch->kept(i);
    count[high] += 1;
    if (!batch->kept(i)) {
      EXPECT_EQ(reason_of(*batch, reasons, i), "quality/low_quality");
    }
  }
  EXPECT_NEAR(kept[1] / count[1], expected[1] / count[1], 0.02);
  EXPECT_NEAR(kept[0] / count[0], expected[0] / count[0], 0.03);
  EXPECT_GT(kept[1] / count[1], 0.9);
  EXPECT_LT(kept[0] / count[0], 0.2);
}

TEST_F(FastTextQuality, DecisionsDependOnlyOnKeyAndSeed) {
  std::vector<std::string> texts = mixed_texts(600);
  auto reference = decide(*model_, texts, 600, 1);
  EXPECT_EQ(decide(*model_, texts, 7, 4), reference);
  EXPECT_EQ(decide(*model_, texts, 100, 3), reference);
  EXPECT_NE(decide(*model_, texts, 600, 1, 43), reference);  // another seed, other draws
}

TEST_F(FastTextQuality, ConfigErrors) {
  ReasonTable reasons;
  StageContext context(reasons, "q", 0, 42);
  auto error = [&](const std::map<std::string, StageParams::Value>& params) {
    auto stage = build_stage(fasttext_quality_spec(), params, context);
    EXPECT_FALSE(stage.is_ok());
    return stage.is_ok() ? std::string() : stage.status().message();
  };
  std::string missing = error({{"model", std::string("/nonexistent/quality.bin")}});
  EXPECT_THAT(missing, HasSubstr("'q'"));
  EXPECT_THAT(missing, HasSubstr("'model'"));
  EXPECT_THAT(missing, HasSubstr("/nonexistent/quality.bin"));
  EXPECT_THAT(error({{"model", *model_}, {"label", std::string("__label__high")}}),
              HasSubstr("'label'"));
  EXPECT_THAT(error({{"model", *model_}, {"alpha", 0.0}}), HasSubstr("'alpha'"));
}

}  // namespace
}  // namespace winnow::testing
