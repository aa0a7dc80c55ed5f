// End to end: `winnow run` with token_count on real text lines, a SentencePiece model trained in
// the test; the per-reason drop count in stats.json and the recorded counts equal those the
// `spm_encode` reference gives.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "core/json_text.h"
#include "stages/missing_model_check.h"
#include "models/sentencepiece_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

TEST(TokenizerFiltersIntegration, TokenCountDropsWhatTheReferenceSays) {
  TempDir dir;
  const std::string& model = unigram_model();
  std::vector<std::string> lines;
  for (const char* path : {"/usr/share/common-licenses/GPL-2", "/usr/share/common-licenses/MPL-1.1",
                           "/usr/share/games/fortunes/de/computer"}) {
    for (auto& line : text_lines(path, 200)) lines.push_back(std::move(line));
  }
  std::vector<size_t> counts = spm_encode_counts(model, lines);
  const size_t lo = 6, hi = 18;
  std::string jsonl;
  uint64_t expected_dropped = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    jsonl += "{\"id\": " + std::to_string(i) + ", \"text\": ";
    append_json_string(jsonl, lines[i]);
    jsonl += "}\n";
    expected_dropped += counts[i] < lo || counts[i] > hi;
  }
  fs::create_directories(dir.file("in"));
  write_file(dir.file("in/docs.jsonl"), jsonl);
  write_file(dir.file("p.yaml"),
             "stages:\n"
             "  - stage: token_count\n"
             "    name: tokens\n"
             "    model: " +
                 model +
                 "\n"
                 "    min_tokens: " +
                 std::to_string(lo) +
                 "\n"
                 "    max_tokens: " +
                 std::to_string(hi) +
                 "\n"
                 "    annotate: true\n");
  std::string out;
  ASSERT_EQ(run_command(kWinnow + " run " + dir.file("p.yaml") + " -i " + dir.file("in") + " -o " +
                            dir.file("out") + " -t 2 --no-progress --output-format jsonl",
                        &out),
            0)
      << out;

  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(dir.file("out/stats.json"));
  EXPECT_EQ(uint64_t(stats["totals"]["documents"]), lines.size());
  EXPECT_EQ(uint64_t(stats["totals"]["dropped_by_reason"]["tokens/token_count"]), expected_dropped);
  EXPECT_EQ(uint64_t(stats["totals"]["kept"]), lines.size() - expected_dropped);
  EXPECT_GT(expected_dropped, 50u);
  EXPECT_LT(expected_dropped, lines.size() - 50);

  // Each kept document records its count, the reference's.
  size_t checked = 0;
  for (const auto& line : split_lines(read_file(dir.file("out/docs.jsonl")))) {
    if (line.empty()) continue;
    simdjson::dom::element doc = parser.parse(line);
    auto i = static_cast<size_t>(int64_t(doc["id"]));
    ASSERT_LT(i, counts.size());
    EXPECT_EQ(double(doc["tokens"]), static_cast<double>(counts[i]));
    ++checked;
  }
  EXPECT_EQ(checked, lines.size() - expected_dropped);
}

TEST(TokenizerFiltersIntegration, MissingModelIsASetupError) {
  expect_missing_model_is_setup_error(
      "  - stage: tokenizer_fertility\n    model: /no/tokenizer.model\n", "p.yaml:3",
      "/no/tokenizer.model");
}

}  // namespace
}  // namespace winnow::testing
