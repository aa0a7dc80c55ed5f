// token_count and tokenizer_fertility with `tokenizer:` (a Hugging Face tokenizer.json or a model
// folder): counts equal the length of HF tokenizers' own encode() (under node), special tokens
// included, never truncated.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "core/utf8.h"
#include "models/tokenizer_files.h"
#include "models/wordpiece_test_models.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

TEST(TokenizerFiltersHf, CountsAreHfEncodeLengths) {
  TempDir dir;
  std::vector<std::string> texts = multilingual_paragraphs(3);
  texts.push_back("");
  // A truncating tokenizer.json: the filters still count every token.
  std::filesystem::create_directories(dir.file("folder"));
  write_file(dir.file("folder/tokenizer.json"),
             wordpiece_json(vocabulary_from(texts), {.lowercase = true}));
  std::filesystem::create_directories(dir.file("truncating"));
  write_file(dir.file("truncating/tokenizer.json"),
             wordpiece_json(vocabulary_from(texts), {.lowercase = true, .truncation = 16}));
  std::vector<std::vector<int64_t>> expected =
      hf_reference_ids(dir.path(), dir.file("folder/tokenizer.json"), texts);
  for (const std::string& tokenizer :
       {dir.file("folder"), dir.file("folder/tokenizer.json"), dir.file("truncating")}) {
    ReasonTable reasons;
    StageContext count_context(reasons, "count", 0, 42), fertility_context(reasons, "ratio", 1, 42);
    auto count = build_stage(token_count_spec(), {{"tokenizer", tokenizer}, {"annotate", true}},
                             count_context);
    auto fertility = build_stage(
        tokenizer_fertility_spec(),
        {{"tokenizer", tokenizer}, {"min_char_to_token_ratio", 0.0}, {"annotate", true}},
        fertility_context);
    ASSERT_TRUE(count.is_ok()) << count.status().message();
    ASSERT_TRUE(fertility.is_ok()) << fertility.status().message();
    auto batch = make_text_batch(texts);
    ASSERT_TRUE(count.value()->process(*batch).is_ok());
    ASSERT_TRUE(fertility.value()->process(*batch).is_ok());
    const AnnotationColumn* counts = batch->find_annotation("count");
    const AnnotationColumn* ratios = batch->find_annotation("ratio");
    ASSERT_TRUE(counts && ratios);
    for (size_t i = 0; i < texts.size(); ++i) {
      EXPECT_EQ(counts->float_at(i), static_cast<double>(expected[i].size())) << i;
      EXPECT_DOUBLE_EQ(ratios->float_at(i),
                       double(count_code_points(texts[i])) / double(expected[i].size()))
          << i;
    }
  }
}

// A real byte-level BPE tokenizer (llama3's), given as a model folder: the count is HF's
// encode() length, special tokens written in the text included.
TEST(TokenizerFiltersHf, BpeTokenizerFolderCountsAsHfEncode) {
  std::string files = tokenizer_files_dir();
  if (files.empty()) {
    GTEST_SKIP() << "the tokenizer files are absent and scripts/fetch_tokenizer_files could not "
                    "fetch them (no npm registry?)";
  }
  TempDir dir;
  std::vector<std::string> texts = multilingual_paragraphs(2);
  texts.push_back("");
  texts.push_back("<|begin_of_text|>Hallo Welt<|end_of_text|>");
  std::vector<std::vector<int64_t>> expected =
      hf_reference_ids(dir.path(), files + "/llama3/tokenizer.json", texts);
  ReasonTable reasons;
  StageContext context(reasons, "count", 0, 42);
  auto count = build_stage(token_count_spec(),
                           {{"tokenizer", files + "/llama3"}, {"annotate", true}}, context);
  ASSERT_TRUE(count.is_ok()) << count.status().message();
  auto batch = make_text_batch(texts);
  ASSERT_TRUE(count.value()->process(*batch).is_ok());
  const AnnotationColumn* counts = batch->find_annotation("count");
  ASSERT_TRUE(counts);
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(counts->float_at(i), static_cast<double>(expected[i].size())) << i;
  }
  EXPECT_EQ(expected[texts.size() - 2].size(), 0u);  // ""
  EXPECT_EQ(expected.back().size(), 4u);             // two special tokens, two words
}

TEST(TokenizerFiltersHf, ModelAndTokenizerAreExclusiveAndErrorsNameTheKey) {
  ReasonTable reasons;
  StageContext context(reasons, "tok", 0, 42);
  auto both =
      build_stage(token_count_spec(),
                  {{"model", std::string("a.model")}, {"tokenizer", std::string("b")}}, context);
  ASSERT_FALSE(both.is_ok());
  EXPECT_THAT(both.status().message(), HasSubstr("not both"));
  auto missing =
      build_stage(tokenizer_fertility_spec(), {{"tokenizer", std::string("/no/such")}}, context);
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("'tokenizer'"));
  EXPECT_THAT(missing.status().message(), HasSubstr("/no/such"));
}

}  // namespace
}  // namespace winnow::testing
