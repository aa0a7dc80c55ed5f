// models/ner_tagger: words, windows and BIO merging on a model whose planted logits make known
// words entities (tests/models/ner_test_models.h), checked against hand-derived spans: exact
// byte ranges, the first sub-token's label, I- without B-, unmapped labels, the entities asked
// for, and long documents cut into many windows.
#include "models/ner_tagger.h"

#include <gtest/gtest.h>

#include "models/ner_test_models.h"

namespace winnow::testing {
namespace {

class NerTaggerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    build_ner_model(dir_->file("ner"));
  }
  static void TearDownTestSuite() { delete dir_; }

  static NerTagger tagger(size_t max_tokens = 0, PiiEntityMask entities = kNerPiiEntities) {
    TokenClassifierOptions options;
    options.max_tokens = max_tokens;
    options.batching.max_batch_tokens = 64;
    auto model = TokenClassifier::load(dir_->file("ner"), options);
    if (!model.is_ok()) throw std::runtime_error(model.status().message());
    return NerTagger(std::move(model).value(), entities);
  }
  static std::vector<std::vector<PiiSpan>> find(const NerTagger& t,
                                                const std::vector<std::string_view>& texts) {
    std::vector<std::vector<PiiSpan>> out;
    Status status = t.find(texts, out);
    if (!status.is_ok()) throw std::runtime_error(status.message());
    return out;
  }
  static TempDir* dir_;
};
TempDir* NerTaggerTest::dir_ = nullptr;

constexpr PiiEntity kPer = PiiEntity::kPerson, kLoc = PiiEntity::kLocation,
                    kOrg = PiiEntity::kOrganization;

TEST_F(NerTaggerTest, PlantedWordsBecomeSpansWithExactByteRanges) {
  auto spans = find(tagger(), {"Alice Smith met Bob in Paris.", "nothing in here today", "",
                               "Alices Smith at ACME  corp and new York, euro."});
  ASSERT_EQ(spans.size(), 4u);
  // B-PER I-PER O B-PER O B-LOC O.
  EXPECT_EQ(spans[0], (std::vector<PiiSpan>{{0, 11, kPer}, {16, 19, kPer}, {23, 28, kLoc}}));
  EXPECT_TRUE(spans[1].empty());
  EXPECT_TRUE(spans[2].empty());
  // "Alices" is alice ##s: its first sub-token's B-PER counts, ##s's B-ORG does not (else
  // Smith would start a new entity); "York" alone, an I-LOC after O; euro's B-MISC ignored.
  EXPECT_EQ(spans[3], (std::vector<PiiSpan>{{0, 12, kPer}, {16, 26, kOrg}, {35, 39, kLoc}}));
}

TEST_F(NerTaggerTest, OnlyTheEntitiesAskedFor) {
  auto spans = find(tagger(0, pii_bit(kLoc)), {"Alice Smith met Bob in Paris at Acme Corp."});
  EXPECT_EQ(spans[0], (std::vector<PiiSpan>{{23, 28, kLoc}}));
}

TEST_F(NerTaggerTest, LongDocumentsRunInWindowsCutAtWordBoundaries) {
  // 11 tokens a unit; windows of 4 tokens between [CLS] and [SEP] cut persons and
  // organisations in two, which merge again at word level.
  const std::string unit = "Alice Smith met Bob in Paris, the Acme Corp. ";
  std::string text;
  std::vector<PiiSpan> expected;
  for (size_t k = 0; k < 40; ++k) {
    const size_t at = text.size();
    text += unit;
    for (const PiiSpan& s :
         std::vector<PiiSpan>{{0, 11, kPer}, {16, 19, kPer}, {23, 28, kLoc}, {34, 43, kOrg}}) {
      expected.push_back({at + s.begin, at + s.end, s.entity});
    }
  }
  // A word longer than a whole window keeps its first tokens (alice ##s ##s ##s ##s ##s).
  text += "Alicesssss";
  expected.push_back({text.size() - 10, text.size(), kPer});
  for (size_t max_tokens : {6, 7, 13, 0}) {
    auto spans = find(tagger(max_tokens), {text, "Paris", text});
    EXPECT_EQ(spans[0], expected) << "max_tokens " << max_tokens;
    EXPECT_EQ(spans[1], (std::vector<PiiSpan>{{0, 5, kLoc}}));
    EXPECT_EQ(spans[2], expected);
  }
}

}  // namespace
}  // namespace winnow::testing
