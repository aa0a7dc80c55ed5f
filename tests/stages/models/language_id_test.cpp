#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "stages/filter_test_support.h"
#include "stages/builtin_stages.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

const std::string kLid = std::string(WINNOW_SOURCE_DIR) + "/models/lid.176.ftz";

const std::vector<std::string> kTexts = {
    "Debian is a free operating system, developed and maintained by volunteers around the world "
    "who work together over the internet.",
    "Debian ist ein freies Betriebssystem, das von Freiwilligen in aller Welt entwickelt und "
    "gepflegt wird, die über das Internet zusammenarbeiten.",
    "Debian est un système d'exploitation libre, développé et maintenu par des bénévoles du "
    "monde entier qui collaborent sur Internet.",
    "Debian è un sistema operativo libero, sviluppato e mantenuto da volontari di tutto il "
    "mondo che collaborano via Internet.",
    "12345 67890 ++ -- ** 0xdeadbeef",
};

struct Run {
  std::unique_ptr<DocBatch> batch;
  ReasonTable reasons;
};

std::unique_ptr<Run> run(const std::map<std::string, StageParams::Value>& params) {
  auto r = std::make_unique<Run>();
  r->batch = make_text_batch(kTexts);
  StageContext context(r->reasons, "lid", 0, 42);
  auto stage = build_stage(language_id_spec(), params, context);
  if (!stage.is_ok()) throw std::runtime_error(stage.status().message());
  EXPECT_TRUE(stage.value()->process(*r->batch).is_ok());
  return r;
}

class LanguageIdBackends : public ::testing::TestWithParam<std::string> {
 protected:
  std::map<std::string, StageParams::Value> params(
      std::map<std::string, StageParams::Value> extra = {}) {
    extra["backend"] = GetParam();
    if (GetParam() == "fasttext") extra["model"] = kLid;
    return extra;
  }
};

TEST_P(LanguageIdBackends, AnnotatesLanguageAndScore) {
  auto r = run(params());
  const AnnotationColumn* language = r->batch->find_annotation("language");
  const AnnotationColumn* score = r->batch->find_annotation("language_score");
  ASSERT_NE(language, nullptr);
  ASSERT_NE(score, nullptr);
  EXPECT_EQ(language->string_at(0), "en");
  EXPECT_EQ(language->string_at(1), "de");
  EXPECT_EQ(language->string_at(2), "fr");
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_GE(score->float_at(i), 0.5) << i;
    EXPECT_LE(score->float_at(i), 1.0001) << i;
    EXPECT_EQ(reason_of(*r->batch, r->reasons, i), "kept");
  }
}

TEST_P(LanguageIdBackends, KeepsOnlyListedLanguages) {
  auto r = run(
      params({{"languages", std::vector<std::string>{"de", "__label__fr"}}, {"min_score", 0.0}}));
  std::vector<std::string> reasons = reasons_of(*r->batch, r->reasons);
  reasons.pop_back();  // the digits: whatever the backend makes of them
  EXPECT_EQ(reasons,
            (std::vector<std::string>{"lid/other_language", "kept", "kept", "lid/other_language"}));
  // The rejected document carries its score.
  EXPECT_GT(r->batch->drop_score(0), 0.5);
}

TEST_P(LanguageIdBackends, DropsLowScores) {
  auto r = run(params({{"min_score", 0.9}, {"annotate", false}}));
  EXPECT_EQ(reason_of(*r->batch, r->reasons, 4), "lid/low_score");
  EXPECT_LT(r->batch->drop_score(4), 0.9);
  EXPECT_EQ(r->batch->find_annotation("language"), nullptr);
}

TEST_P(LanguageIdBackends, MaxCharsLooksAtThePrefixOnly) {
  // German first (about 270 characters), then much more English.
  std::string text = kTexts[1] + " " + kTexts[1] + " ";
  for (int i = 0; i < 12; ++i) text += kTexts[0] + " ";
  for (int64_t max_chars : {int64_t{0}, int64_t{250}}) {
    auto batch = make_text_batch({text});
    ReasonTable reasons;
    StageContext context(reasons, "lid", 0, 42);
    auto stage = build_stage(language_id_spec(), params({{"max_chars", max_chars}}), context);
    ASSERT_TRUE(stage.is_ok()) << stage.status().message();
    ASSERT_TRUE(stage.value()->process(*batch).is_ok());
    EXPECT_EQ(batch->find_annotation("language")->string_at(0), max_chars == 0 ? "en" : "de")
        << max_chars;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, LanguageIdBackends,
                         ::testing::Values(std::string("cld2"), std::string("fasttext")));

TEST(LanguageId, FieldNamesAreConfigurable) {
  auto r = run({{"language_field", std::string("lang")}, {"score_field", std::string("lang_p")}});
  ASSERT_NE(r->batch->find_annotation("lang"), nullptr);
  ASSERT_NE(r->batch->find_annotation("lang_p"), nullptr);
  EXPECT_EQ(r->batch->find_annotation("lang")->string_at(1), "de");
}

TEST(LanguageId, ConfigErrorsNameTheKey) {
  ReasonTable reasons;
  StageContext context(reasons, "lid", 0, 42);
  auto error = [&](const std::map<std::string, StageParams::Value>& params) {
    auto stage = build_stage(language_id_spec(), params, context);
    EXPECT_FALSE(stage.is_ok());
    return stage.is_ok() ? std::string() : stage.status().message();
  };
  std::string missing =
      error({{"backend", std::string("fasttext")}, {"model", std::string("/no/such/lid.176.bin")}});
  EXPECT_THAT(missing, HasSubstr("'lid'"));
  EXPECT_THAT(missing, HasSubstr("'model'"));
  EXPECT_THAT(missing, HasSubstr("/no/such/lid.176.bin"));
  EXPECT_THAT(error({{"backend", std::string("fasttext")}}), HasSubstr("needs a model"));
  EXPECT_THAT(error({{"model", kLid}}), HasSubstr("only used by backend fasttext"));
  EXPECT_THAT(error({{"backend", std::string("langdetect")}}), HasSubstr("'backend'"));
  EXPECT_THAT(error({{"min_score", 1.5}}), HasSubstr("'min_score'"));
  EXPECT_THAT(error({{"max_chars", int64_t{-1}}}), HasSubstr("'max_chars'"));
  EXPECT_THAT(error({{"languages", std::vector<std::string>{""}}}), HasSubstr("'languages'"));
}

}  // namespace
}  // namespace winnow::testing
