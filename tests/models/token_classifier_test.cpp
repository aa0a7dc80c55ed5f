// models/token_classifier: per-token logits of winnow's ONNX session against numpy's forward
// pass of the same seeded weights (tests/models/bert_test_model.py), for rows of several
// lengths batched together; the specials found around a text; and load errors.
#include "models/token_classifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "models/ner_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

TEST(TokenClassifier, PerTokenLogitsMatchNumpy) {
  TempDir dir;
  build_ner_model(dir.file("ner"));
  TokenClassifierOptions options;
  options.batching.max_batch_tokens = 24;  // several batches of mixed lengths
  auto model = TokenClassifier::load(dir.file("ner"), options);
  ASSERT_TRUE(model.is_ok()) << model.status().message();
  const TokenClassifier& m = *model.value();
  EXPECT_EQ(m.labels(), kNerLabels);
  EXPECT_EQ(m.prefix(), (std::vector<int64_t>{2}));  // [CLS]
  EXPECT_EQ(m.suffix(), (std::vector<int64_t>{3}));  // [SEP]
  EXPECT_EQ(m.max_tokens(), 64u);                    // config.json's max_position_embeddings
  std::vector<std::vector<int64_t>> ids = {
      {2, 5, 6, 7, 8, 9, 3}, {2, 3}, {2, 13, 1, 1, 14, 3}, {2, 5, 16, 6, 17, 18, 19, 20, 21, 3}};
  for (int i = 0; i < 40; ++i) ids[2].insert(ids[2].end() - 1, 5 + (i * 7) % 23);
  std::vector<std::span<const int64_t>> rows(ids.begin(), ids.end());
  std::vector<std::vector<float>> logits;
  ASSERT_TRUE(m.logits(rows, logits).is_ok());
  ReferenceOutputs reference = reference_outputs(dir.file("ner"), ids);
  ASSERT_EQ(logits.size(), ids.size());
  for (size_t d = 0; d < ids.size(); ++d) {
    const std::vector<double>& expected = reference[d].at("logits");
    ASSERT_EQ(logits[d].size(), ids[d].size() * kNerLabels.size());
    ASSERT_EQ(expected.size(), logits[d].size());
    for (size_t k = 0; k < expected.size(); ++k) {
      EXPECT_NEAR(logits[d][k], expected[k], 1e-3 * (1 + std::abs(expected[k])))
          << "row " << d << " value " << k;
    }
  }
}

TEST(TokenClassifier, RowsLongerThanTheModelAreRefused) {
  TempDir dir;
  build_ner_model(dir.file("ner"), 16);
  TokenClassifierOptions options;
  options.max_tokens = 8;
  auto model = TokenClassifier::load(dir.file("ner"), options);
  ASSERT_TRUE(model.is_ok()) << model.status().message();
  std::vector<int64_t> long_row(9, 5);
  std::vector<std::span<const int64_t>> rows = {long_row};
  std::vector<std::vector<float>> logits;
  Status status = model.value()->logits(rows, logits);
  EXPECT_FALSE(status.is_ok());
  EXPECT_THAT(status.message(), HasSubstr("9 tokens"));
}

TEST(TokenClassifier, LoadErrorsSayWhatIsWrong) {
  TempDir dir;
  auto missing = TokenClassifier::load(dir.file("nothing"), {});
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("does not exist"));
  // A sequence classifier's logits are [batch, labels]: not a token classifier.
  build_bert_model(dir.file("seq"), "--head classifier --labels 3 --vocab 28");
  write_file(dir.file("seq") + "/tokenizer.json", wordpiece_json(kNerPieces, {}));
  auto sequence = TokenClassifier::load(dir.file("seq"), {});
  ASSERT_FALSE(sequence.is_ok());
  EXPECT_THAT(sequence.status().message(), HasSubstr("not a token classifier"));
  // No id2label.
  build_ner_model(dir.file("ner"));
  write_file(dir.file("ner") + "/config.json", "{\"max_position_embeddings\": 64}");
  auto unlabelled = TokenClassifier::load(dir.file("ner"), {});
  ASSERT_FALSE(unlabelled.is_ok());
  EXPECT_THAT(unlabelled.status().message(), HasSubstr("id2label"));
}

}  // namespace
}  // namespace winnow::testing
