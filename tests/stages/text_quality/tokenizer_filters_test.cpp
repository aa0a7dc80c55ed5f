// token_count and tokenizer_fertility (NeMo's TokenCountFilter and TokenizerFertilityFilter) on
// SentencePiece models trained from real text; every expected count comes from `spm_encode`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/utf8.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "models/sentencepiece_test_models.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
using Values = std::map<std::string, StageParams::Value>;

class TokenizerFiltersTest : public ::testing::Test {
 protected:
  // Real lines: English, German, Russian (Cyrillic the models never saw), and the count
  // spm_encode gives each with the unigram model.
  static const std::vector<std::string>& lines() {
    static const std::vector<std::string> lines = [] {
      std::vector<std::string> out;
      for (const char* path :
           {"/usr/share/common-licenses/LGPL-2.1", "/usr/share/games/fortunes/de/computer",
            "/usr/share/games/fortunes/ru/2001.03"}) {
        for (auto& line : text_lines(path, 60)) out.push_back(std::move(line));
      }
      return out;
    }();
    return lines;
  }
  static const std::vector<size_t>& counts() {
    static const std::vector<size_t> counts = spm_encode_counts(unigram_model(), lines());
    return counts;
  }

  Result<std::unique_ptr<Stage>> build(const StageSpec& spec, Values values) {
    return build_stage(spec, values, context_);
  }
  std::unique_ptr<Stage> make(const StageSpec& spec, Values values) {
    auto stage = build(spec, std::move(values));
    EXPECT_TRUE(stage.is_ok()) << stage.status().message();
    return stage.is_ok() ? std::move(stage).value() : nullptr;
  }
  // Reasons of `texts` through a stage built from `spec` and `values`.
  std::vector<std::string> decide(const StageSpec& spec, Values values,
                                  const std::vector<std::string>& texts) {
    auto stage = make(spec, std::move(values));
    if (!stage) return {};
    auto batch = make_text_batch(texts);
    EXPECT_TRUE(stage->process(*batch).is_ok());
    return reasons_of(*batch, reasons_);
  }

  ReasonTable reasons_;
  StageContext context_{reasons_, "tok", 0, 42};
};

TEST_F(TokenizerFiltersTest, TokenCountAnnotatesTheReferenceCount) {
  ASSERT_GT(lines().size(), 150u);
  auto stage = make(token_count_spec(), {{"model", unigram_model()}, {"annotate", true}});
  ASSERT_TRUE(stage);
  auto batch = make_text_batch(lines());
  ASSERT_TRUE(stage->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("tok");
  ASSERT_NE(column, nullptr);
  for (size_t i = 0; i < lines().size(); ++i) {
    EXPECT_TRUE(batch->kept(i));  // defaults 0 … no limit keep everything
    EXPECT_EQ(column->float_at(i), static_cast<double>(counts()[i])) << lines()[i];
  }
}

TEST_F(TokenizerFiltersTest, TokenCountBoundsAreInclusive) {
  // Bounds equal to counts some lines have exactly: those lines sit on the boundary.
  std::vector<size_t> sorted = counts();
  std::sort(sorted.begin(), sorted.end());
  size_t lo = sorted[sorted.size() / 4], hi = sorted[sorted.size() * 3 / 4];
  ASSERT_LT(lo, hi);
  auto reasons = decide(token_count_spec(),
                        {{"model", unigram_model()},
                         {"min_tokens", static_cast<int64_t>(lo)},
                         {"max_tokens", static_cast<int64_t>(hi)}},
                        lines());
  ASSERT_EQ(reasons.size(), lines().size());
  size_t at_lo = 0, at_hi = 0, dropped = 0;
  for (size_t i = 0; i < lines().size(); ++i) {
    bool keep = counts()[i] >= lo && counts()[i] <= hi;
    EXPECT_EQ(reasons[i], keep ? "kept" : "tok/token_count") << counts()[i] << ": " << lines()[i];
    at_lo += counts()[i] == lo;
    at_hi += counts()[i] == hi;
    dropped += !keep;
  }
  EXPECT_GT(at_lo, 0u);
  EXPECT_GT(at_hi, 0u);
  EXPECT_GT(dropped, 0u);

  // One line, its count n from spm_encode: kept at min n and max n, dropped at n+1 / n-1, and
  // a dropped document's score is its count.
  size_t i = std::find_if(counts().begin(), counts().end(), [](size_t n) { return n >= 8; }) -
             counts().begin();
  ASSERT_LT(i, counts().size());
  auto n = static_cast<int64_t>(counts()[i]);
  const std::vector<std::string> one = {lines()[i]};
  EXPECT_EQ(decide(token_count_spec(), {{"model", unigram_model()}, {"min_tokens", n}}, one)[0],
            "kept");
  EXPECT_EQ(decide(token_count_spec(), {{"model", unigram_model()}, {"max_tokens", n}}, one)[0],
            "kept");
  EXPECT_EQ(decide(token_count_spec(), {{"model", unigram_model()}, {"min_tokens", n + 1}}, one)[0],
            "tok/token_count");
  EXPECT_EQ(decide(token_count_spec(), {{"model", unigram_model()}, {"max_tokens", n - 1}}, one)[0],
            "tok/token_count");
  auto stage = make(token_count_spec(), {{"model", unigram_model()}, {"max_tokens", n - 1}});
  auto batch = make_text_batch(one);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->drop_score(0), static_cast<double>(n));
}

TEST_F(TokenizerFiltersTest, SpecialTokensCountAsHuggingFaceEncodeCountsThem) {
  const std::string text = lines()[0];
  auto n = static_cast<int64_t>(counts()[0]);
  for (auto [bos, eos, extra] : {std::tuple{false, false, 0}, std::tuple{true, false, 1},
                                 std::tuple{false, true, 1}, std::tuple{true, true, 2}}) {
    Values values = {{"model", unigram_model()}, {"add_bos", bos}, {"add_eos", eos}};
    values["min_tokens"] = n + extra;
    values["max_tokens"] = n + extra;
    EXPECT_EQ(decide(token_count_spec(), values, {text})[0], "kept") << bos << eos;
    values["min_tokens"] = n + extra + 1;
    values["max_tokens"] = n + extra + 1;
    EXPECT_EQ(decide(token_count_spec(), values, {text})[0], "tok/token_count") << bos << eos;
  }
  // The empty text is only its special tokens (T5's encode("") is [</s>]).
  EXPECT_EQ(decide(token_count_spec(),
                   {{"model", unigram_model()},
                    {"add_eos", true},
                    {"min_tokens", int64_t{1}},
                    {"max_tokens", int64_t{1}}},
                   {""})[0],
            "kept");
  EXPECT_EQ(
      decide(token_count_spec(), {{"model", unigram_model()}, {"min_tokens", int64_t{1}}}, {""})[0],
      "tok/token_count");
  // A model without a BOS piece cannot count one.
  auto stage = build(token_count_spec(), {{"model", bpe_model()}, {"add_bos", true}});
  ASSERT_FALSE(stage.is_ok());
  EXPECT_THAT(stage.status().message(), HasSubstr("'add_bos'"));
  EXPECT_TRUE(build(token_count_spec(), {{"model", bpe_model()}, {"add_eos", true}}).is_ok());
}

TEST_F(TokenizerFiltersTest, ParameterErrorsNameTheKey) {
  struct Case {
    const StageSpec spec;
    Values values;
    const char* key;
  };
  std::vector<Case> cases = {
      {token_count_spec(),
       {{"model", unigram_model()}, {"min_tokens", int64_t{-1}}},
       "'min_tokens'"},
      {token_count_spec(),
       {{"model", unigram_model()}, {"min_tokens", int64_t{5}}, {"max_tokens", int64_t{4}}},
       "'max_tokens'"},
      {token_count_spec(), {{"model", std::string()}}, "'model'"},
      {tokenizer_fertility_spec(), {}, "'model'"},
      {tokenizer_fertility_spec(),
       {{"model", unigram_model()}, {"path_to_sentencepiece_model", unigram_model()}},
       "'model'"},
      {tokenizer_fertility_spec(),
       {{"model", unigram_model()}, {"min_char_to_token_ratio", -0.5}},
       "'min_char_to_token_ratio'"},
  };
  for (const auto& c : cases) {
    auto stage = build(c.spec, c.values);
    ASSERT_FALSE(stage.is_ok()) << c.key;
    EXPECT_THAT(stage.status().message(), HasSubstr(c.key));
  }
  // NeMo's own key works as well as `model`.
  EXPECT_TRUE(build(tokenizer_fertility_spec(), {{"path_to_sentencepiece_model", unigram_model()}})
                  .is_ok());
}

TEST_F(TokenizerFiltersTest, MissingOrBrokenModelIsAnErrorNamingKeyAndPath) {
  for (const StageSpec& spec : {token_count_spec(), tokenizer_fertility_spec()}) {
    auto stage = build(spec, {{"model", std::string("/no/such/tokenizer.model")}});
    ASSERT_FALSE(stage.is_ok());
    EXPECT_THAT(stage.status().message(), HasSubstr("'model'"));
    EXPECT_THAT(stage.status().message(), HasSubstr("/no/such/tokenizer.model"));
  }
  TempDir dir;
  write_file(dir.file("tokenizer.model"), "not a model");
  auto stage = build(token_count_spec(), {{"model", dir.file("tokenizer.model")}});
  ASSERT_FALSE(stage.is_ok());
  EXPECT_THAT(stage.status().message(), HasSubstr(dir.file("tokenizer.model")));
}

// Prefixes of real lines (by code point), for texts whose ratio is known from the reference.
std::vector<std::string> code_point_prefixes(const std::vector<std::string>& lines, size_t each) {
  std::vector<std::string> prefixes;
  for (const std::string& line : lines) {
    size_t taken = 0;
    for (size_t end = 1; end <= line.size() && taken < each; ++end) {
      if (end < line.size() && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) continue;
      prefixes.push_back(line.substr(0, end));
      ++taken;
    }
  }
  return prefixes;
}

TEST_F(TokenizerFiltersTest, FertilityIsCodePointsPerPieceWithInclusiveMinimum) {
  std::vector<std::string> texts =
      code_point_prefixes({lines()[0], lines()[1], lines()[2], lines()[lines().size() - 1],
                           lines()[lines().size() - 2]},
                          80);
  std::vector<size_t> pieces = spm_encode_counts(unigram_model(), texts);
  // Texts exactly at 2.5 code points per piece (2 chars == 5 pieces) and just under it.
  std::vector<std::string> at, under;
  for (size_t i = 0; i < texts.size(); ++i) {
    size_t chars = count_code_points(texts[i]);
    if (pieces[i] == 0) continue;
    if (2 * chars == 5 * pieces[i]) at.push_back(texts[i]);
    if (2 * chars + 1 == 5 * pieces[i]) under.push_back(texts[i]);
  }
  ASSERT_FALSE(at.empty());
  ASSERT_FALSE(under.empty());
  for (const auto& text : at) {
    EXPECT_EQ(decide(tokenizer_fertility_spec(), {{"model", unigram_model()}}, {text})[0], "kept")
        << text;
  }
  for (const auto& text : under) {
    EXPECT_EQ(decide(tokenizer_fertility_spec(), {{"model", unigram_model()}}, {text})[0],
              "tok/tokenizer_fertility")
        << text;
  }

  // Every text's annotated ratio is len(text) / len(pieces), with the reference's pieces.
  auto stage =
      make(tokenizer_fertility_spec(),
           {{"model", unigram_model()}, {"annotate", true}, {"min_char_to_token_ratio", 0.0}});
  auto batch = make_text_batch(texts);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("tok");
  ASSERT_NE(column, nullptr);
  for (size_t i = 0; i < texts.size(); ++i) {
    double expected = pieces[i] == 0 ? -1.0
                                     : static_cast<double>(count_code_points(texts[i])) /
                                           static_cast<double>(pieces[i]);
    EXPECT_EQ(column->float_at(i), expected) << texts[i];
  }
}

TEST_F(TokenizerFiltersTest, FertilityOfATextWithoutPiecesIsMinusOne) {
  // NeMo returns -1 when encode_as_pieces gives nothing (it would divide by zero): empty text,
  // or white space the model's normaliser removes. -1 is below any minimum, even 0.
  const std::vector<std::string> texts = {"", "   ", "\n\n\t \n", "x"};
  auto stage =
      make(tokenizer_fertility_spec(),
           {{"model", unigram_model()}, {"annotate", true}, {"min_char_to_token_ratio", 0.0}});
  auto batch = make_text_batch(texts);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("tok");
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(reason_of(*batch, reasons_, i), "tok/tokenizer_fertility") << i;
    EXPECT_EQ(column->float_at(i), -1.0);
    EXPECT_EQ(batch->drop_score(i), -1.0);
  }
  EXPECT_TRUE(batch->kept(3));
  EXPECT_EQ(column->float_at(3),
            1.0 / static_cast<double>(spm_encode_counts(unigram_model(), {"x"})[0]));
}

TEST_F(TokenizerFiltersTest, NonAsciiCharactersAreCodePoints) {
  // Russian: 2-byte code points; every count against the reference, ratio in code points.
  std::vector<std::string> russian(lines().end() - 20, lines().end());
  std::vector<size_t> reference = spm_encode_counts(bpe_model(), russian);
  auto stage = make(tokenizer_fertility_spec(),
                    {{"model", bpe_model()}, {"annotate", true}, {"min_char_to_token_ratio", 0.0}});
  auto batch = make_text_batch(russian);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  const AnnotationColumn* column = batch->find_annotation("tok");
  size_t non_ascii = 0;
  for (size_t i = 0; i < russian.size(); ++i) {
    ASSERT_GT(reference[i], 0u);
    EXPECT_EQ(column->float_at(i),
              static_cast<double>(count_code_points(russian[i])) / reference[i]);
    non_ascii += count_code_points(russian[i]) < russian[i].size();
  }
  EXPECT_GT(non_ascii, 10u);
}

// The two stages through the real executor: the same bytes out whatever the threads and the
// batch size.
TEST_F(TokenizerFiltersTest, PipelineOutputDoesNotDependOnThreadsOrBatchSize) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 3, 300);
  std::string yaml =
      "stages:\n"
      "  - stage: token_count\n"
      "    model: " +
      bpe_model() +
      "\n"
      "    min_tokens: 40\n"
      "    max_tokens: 400\n"
      "    add_eos: true\n"
      "    annotate: true\n"
      "  - stage: tokenizer_fertility\n"
      "    model: " +
      unigram_model() +
      "\n"
      "    min_char_to_token_ratio: 1.8\n"
      "    annotate: true\n";
  PipelineConfig config = load_config(yaml);
  std::map<std::string, std::string> first;
  for (auto [threads, batch] : {std::pair{1, 1000}, std::pair{4, 7}, std::pair{2, 64}}) {
    RunOptions options;
    options.inputs = inputs;
    options.output = dir.file("out-" + std::to_string(threads));
    options.threads = threads;
    options.batch_size = batch;
    RunReport report = run_pipeline(config, options);
    ASSERT_TRUE(report.status.is_ok()) << report.status.message();
    EXPECT_TRUE(report.totals.reconciles());
    EXPECT_GT(report.totals.dropped["token_count/token_count"], 0u);
    EXPECT_GT(report.totals.kept, 0u);
    auto tree = read_output_tree(options.output);
    if (first.empty()) {
      first = tree;
    } else {
      EXPECT_TRUE(tree == first) << threads << " threads, batch " << batch;
    }
  }
}

}  // namespace
}  // namespace winnow::testing
