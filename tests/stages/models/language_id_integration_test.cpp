// End to end: examples/multilingual.yaml (unicode_fix, text_length, language_id with the real
// lid.176 model) over the real multilingual corpus, through the winnow binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "stages/missing_model_check.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

TEST(LanguageIdIntegration, StagesAreListed) {
  std::string out;
  ASSERT_EQ(run_command(kWinnow + " stages", &out), 0);
  for (const char* stage :
       {"unicode_fix", "language_id", "fasttext_classify", "fasttext_quality"}) {
    EXPECT_THAT(out, HasSubstr(stage));
  }
}

TEST(LanguageIdIntegration, MultilingualExampleRuns) {
  TempDir dir;
  std::string out;
  fs::create_directories(dir.file("corpus"));
  ASSERT_EQ(
      run_command(kSource + "/scripts/make_langid_corpus " + dir.file("corpus/docs.jsonl"), &out),
      0)
      << out;
  // From the repository root, where the example's model path points.
  auto run = [&](const std::string& target, int threads) {
    return run_command("cd " + kSource + " && " + kWinnow + " run examples/multilingual.yaml -i " +
                           dir.file("corpus") + " -o " + target + " -t " + std::to_string(threads),
                       &out);
  };
  ASSERT_EQ(run(dir.file("out"), 2), 0) << out;
  EXPECT_THAT(out, HasSubstr("reconciled"));

  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(dir.file("out/stats.json"));
  uint64_t documents = uint64_t(stats["totals"]["documents"]);
  uint64_t kept = uint64_t(stats["totals"]["kept"]);
  EXPECT_GT(documents, 2000u);
  EXPECT_GT(kept, 800u);
  EXPECT_LT(kept, documents);

  // Every kept document is in one of the four languages; nearly all match the source's language.
  std::string kept_lines = read_file(dir.file("out/docs.jsonl"));
  size_t total = 0, matching = 0;
  for (const auto& line : split_lines(kept_lines)) {
    if (line.empty()) continue;
    simdjson::dom::element doc = parser.parse(line);
    std::string language{std::string_view(doc["language"])};
    EXPECT_TRUE(language == "de" || language == "fr" || language == "es" || language == "it")
        << language;
    EXPECT_GE(double(doc["language_score"]), 0.5);
    ++total;
    matching += language == std::string_view(doc["lang"]);
  }
  EXPECT_EQ(total, kept);
  EXPECT_GE(static_cast<double>(matching) / total, 0.95);

  // The same bytes with one thread.
  ASSERT_EQ(run(dir.file("out1"), 1), 0) << out;
  EXPECT_EQ(read_output_tree(dir.file("out")), read_output_tree(dir.file("out1")));
}

TEST(LanguageIdIntegration, MissingModelIsASetupError) {
  expect_missing_model_is_setup_error(
      "  - stage: language_id\n    backend: fasttext\n    model: /no/lid.bin\n", "p.yaml:4",
      "/no/lid.bin");
}

}  // namespace
}  // namespace winnow::testing
