#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "models/hashed_embedder.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<Stage> embed_stage(const std::map<std::string, StageParams::Value>& values) {
  ReasonTable reasons;
  StageContext context(reasons, "embed", 0, 42);
  auto stage = build_stage(embed_spec(), values, context);
  if (!stage.is_ok()) throw std::runtime_error(stage.status().message());
  return std::move(stage).value();
}

TEST(EmbedStage, HashedVectorsGoToTheFieldOfKeptDocuments) {
  auto stage = embed_stage({{"dimensions", int64_t(32)}, {"field", std::string("vec")}});
  auto batch = make_text_batch({"alpha beta gamma", "dropped text", "", "alpha beta delta"});
  ReasonTable reasons;
  batch->drop(1, reasons.add("earlier", 0, "gone"));
  ASSERT_TRUE(stage->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("vec");
  ASSERT_NE(column, nullptr);
  EXPECT_EQ(column->type(), AnnotationType::kFloatVector);
  EXPECT_FALSE(column->has(1));
  HashedEmbedderOptions options;
  options.dimensions = 32;
  HashedEmbedder embedder(options);
  for (size_t i : {0, 2, 3}) {
    ASSERT_TRUE(column->has(i));
    std::vector<float> expected(32);
    embedder.embed(batch->text(i), expected);
    EXPECT_EQ(std::vector<float>(column->vector_at(i).begin(), column->vector_at(i).end()),
              expected);
  }
}

TEST(EmbedStage, BadParametersAreErrors) {
  ReasonTable reasons;
  StageContext context(reasons, "embed", 0, 42);
  for (const auto& [key, value, message] :
       std::vector<std::tuple<std::string, StageParams::Value, std::string>>{
           {"dimensions", int64_t(0), "between 1 and 8192"},
           {"char_ngram", int64_t(-1), "between 0 and 16"},
           {"word_ngrams", int64_t(9), "between 0 and 8"}}) {
    auto stage = build_stage(embed_spec(), {{key, value}}, context);
    ASSERT_FALSE(stage.is_ok()) << key;
    EXPECT_THAT(stage.status().message(), HasSubstr(message));
    EXPECT_THAT(stage.status().message(), HasSubstr(key));
  }
}

}  // namespace
}  // namespace winnow::testing
