// The tokenize stage and the model stages' use of its ids (stages/models/token_ids_cache.h): a
// model stage after it computes exactly what it computes alone, uses the ids it finds (only those
// made its own way, only for unchanged texts), and tokenises the rest itself.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "models/onnx_test_models.h"
#include "models/text_tokenizer.h"
#include "models/wordpiece_test_models.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "stages/models/token_ids_cache.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
using Params = std::map<std::string, StageParams::Value>;

// A 3-label classifier and an encoder (seeded BERTs) sharing a WordPiece tokenizer.json
// without truncation of its own, so max_tokens comes from the stage or config.json (64).
class TokenizeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    texts_ = new std::vector<std::string>(multilingual_paragraphs(4));
    std::vector<std::string> vocabulary = vocabulary_from(*texts_);
    const std::string vocab = " --vocab " + std::to_string(vocabulary.size() + 5);
    build_bert_model(dir_->file("classifier"), "--head classifier --labels 3 --seed 31" + vocab);
    build_bert_model(dir_->file("encoder"), "--seed 32" + vocab);
    for (const char* name : {"classifier", "encoder"}) {
      write_file(dir_->file(name) + "/tokenizer.json",
                 wordpiece_json(vocabulary, {.lowercase = true}));
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete texts_;
  }

  // Runs `specs` in turn on a batch of the texts; `between` runs after the first stage.
  static std::unique_ptr<DocBatch> run(const std::vector<std::pair<StageSpec, Params>>& specs,
                                       const std::function<void(DocBatch&)>& between = {}) {
    // All stages built first and alive together, as in a pipeline.
    ReasonTable reasons;
    std::vector<std::unique_ptr<Stage>> stages;
    for (size_t s = 0; s < specs.size(); ++s) {
      StageContext context(reasons, specs[s].first.name, static_cast<int>(s), 42);
      auto stage = build_stage(specs[s].first, specs[s].second, context);
      if (!stage.is_ok()) throw std::runtime_error(stage.status().message());
      stages.push_back(std::move(stage).value());
    }
    auto batch = make_text_batch(*texts_);
    for (size_t s = 0; s < stages.size(); ++s) {
      Status status = stages[s]->process(*batch);
      if (!status.is_ok()) throw std::runtime_error(status.message());
      if (s == 0 && between) between(*batch);
    }
    return batch;
  }
  static Params classifier(int64_t max_tokens, int64_t max_chars) {
    return {{"model", dir_->file("classifier")},
            {"max_tokens", max_tokens},
            {"max_chars", max_chars},
            {"batch_size", int64_t{3}}};
  }
  static std::vector<double> scores(const DocBatch& batch) {
    std::vector<double> out;
    const AnnotationColumn* column = batch.find_annotation("classify_score");
    for (size_t i = 0; i < batch.size(); ++i) out.push_back(column->float_at(i));
    return out;
  }
  static TempDir* dir_;
  static std::vector<std::string>* texts_;
};
TempDir* TokenizeTest::dir_ = nullptr;
std::vector<std::string>* TokenizeTest::texts_ = nullptr;

TEST_F(TokenizeTest, AModelStageAfterItComputesWhatItComputesAlone) {
  for (const auto& [max_tokens, max_chars] : {std::pair<int64_t, int64_t>{0, 0}, {20, 0}, {0, 90}}) {
    auto alone = run({{classify_spec(), classifier(max_tokens, max_chars)}});
    size_t from_cache = 0;
    auto after = run({{tokenize_spec(), {{"model", dir_->file("classifier")},
                                         {"max_tokens", max_tokens},
                                         {"max_chars", max_chars}}},
                      {classify_spec(), classifier(max_tokens, max_chars)}},
                     [&](DocBatch& batch) {
                       const TokenIdsCache* cache = batch.find_cache<TokenIdsCache>();
                       ASSERT_NE(cache, nullptr);
                       auto tokenizer = load_text_tokenizer(dir_->file("classifier"));
                       // The classifier's own tokenisation: config.json's 64 positions.
                       Tokenization how{tokenizer.value(),
                                        max_tokens ? size_t(max_tokens) : 64, size_t(max_chars)};
                       for (size_t i = 0; i < batch.size(); ++i) from_cache += cache->find(how, i) != nullptr;
                     });
    EXPECT_EQ(from_cache, texts_->size());
    EXPECT_EQ(scores(*after), scores(*alone)) << max_tokens << " " << max_chars;  // bit for bit
    for (size_t i = 0; i < texts_->size(); ++i) {
      EXPECT_EQ(after->find_annotation("classify")->string_at(i),
                alone->find_annotation("classify")->string_at(i));
    }
  }
  // embed: mean pooling on the encoder, the same vectors.
  Params embed = {{"model", dir_->file("encoder")}};
  auto alone = run({{embed_spec(), embed}});
  auto after = run({{tokenize_spec(), {{"model", dir_->file("encoder")}}}, {embed_spec(), embed}});
  for (size_t i = 0; i < texts_->size(); ++i) {
    auto a = alone->find_annotation("embedding")->vector_at(i);
    auto b = after->find_annotation("embedding")->vector_at(i);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << i;
  }
}

// The model stage takes the ids it finds: row 0 given the ids of text 1 scores as text 1.
TEST_F(TokenizeTest, TheModelStageUsesTheIdsItFinds) {
  auto tokenizer = load_text_tokenizer(dir_->file("classifier")).value();
  Tokenization how{tokenizer, 64, 0};
  auto batch = run({{tokenize_spec(), {{"model", dir_->file("classifier")}}},
                    {classify_spec(), classifier(0, 0)}},
                   [&](DocBatch& b) {
                     std::vector<int64_t> ids;
                     how.encode((*texts_)[1], ids);
                     b.cache<TokenIdsCache>().store(how, 0, ids);
                   });
  auto alone = run({{classify_spec(), classifier(0, 0)}});
  EXPECT_EQ(scores(*batch)[0], scores(*alone)[1]);
  EXPECT_NE(scores(*batch)[0], scores(*alone)[0]);
}

// A text changed between the two stages is tokenised again; ids made another way (here another
// max_tokens) are not used, and the model stage says so once.
TEST_F(TokenizeTest, ChangedTextsAndOtherSettingsAreTokenisedAgain) {
  auto changed = run({{tokenize_spec(), {{"model", dir_->file("classifier")}}},
                      {classify_spec(), classifier(0, 0)}},
                     [&](DocBatch& b) { b.set_text(0, (*texts_)[2]); });
  auto alone = run({{classify_spec(), classifier(0, 0)}});
  EXPECT_EQ(scores(*changed)[0], scores(*alone)[2]);
  EXPECT_EQ(scores(*changed)[1], scores(*alone)[1]);

  ::testing::internal::CaptureStderr();
  auto other = run({{tokenize_spec(), {{"model", dir_->file("classifier")}, {"max_tokens", int64_t{10}}}},
                    {classify_spec(), classifier(0, 0)}});
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(scores(*other), scores(*alone));
  EXPECT_THAT(err, HasSubstr("classify: a tokenize stage before it tokenised with another"));
}

// classify's preset sets max_tokens and max_chars; tokenize's preset sets the same, so the ids
// are used (no line on stderr) and the results are the same.
TEST_F(TokenizeTest, APresetTokenisesAsTheClassifyPreset) {
  Params preset = {{"model", dir_->file("classifier")}, {"preset", std::string("domain")}};
  // The domain preset cuts to 2,000 characters and 512 tokens; the test model has 64 positions,
  // so both stages are given 40 tokens.
  preset["max_tokens"] = int64_t{40};
  Params classify = preset;
  classify["field"] = std::string("classify");
  ::testing::internal::CaptureStderr();
  auto after = run({{tokenize_spec(), preset}, {classify_spec(), classify}});
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(err, ::testing::Not(HasSubstr("tokenize stage")));
  auto alone = run({{classify_spec(), classify}});
  EXPECT_EQ(scores(*after), scores(*alone));
}

TEST_F(TokenizeTest, BadParametersAreErrors) {
  ReasonTable reasons;
  StageContext context(reasons, "tokenize", 0, 42);
  auto no_model = build_stage(tokenize_spec(), {}, context);
  ASSERT_FALSE(no_model.is_ok());
  EXPECT_THAT(no_model.status().message(), HasSubstr("'model'"));
  auto missing = build_stage(tokenize_spec(), {{"model", dir_->file("nowhere")}}, context);
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("nowhere"));
  auto preset = build_stage(
      tokenize_spec(), {{"model", dir_->file("classifier")}, {"preset", std::string("toxicity")}},
      context);
  ASSERT_FALSE(preset.is_ok());
  EXPECT_THAT(preset.status().message(), HasSubstr("'toxicity' is not a preset"));
  auto tokens = build_stage(tokenize_spec(),
                            {{"model", dir_->file("classifier")}, {"max_tokens", int64_t{2}}},
                            context);
  ASSERT_FALSE(tokens.is_ok());
  EXPECT_THAT(tokens.status().message(), HasSubstr("at least 3"));
}

}  // namespace
}  // namespace winnow::testing
