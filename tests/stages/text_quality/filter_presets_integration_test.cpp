// The example filter pipelines (examples/nemo_english.yaml, nemo_non_english.yaml, fineweb.yaml)
// run end to end with the real binary over real text: this machine's documentation (the example
// corpus) and English HTML manuals (Python 3.11, Debian Reference) cut into 2-5 KB documents.
// Counts must reconcile, every drop must be attributed to one of the pipeline's filters, and
// rejected records must carry the filter's reason and score. The run is deterministic whatever
// the thread count and batch size.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <set>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

class FilterPresets : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    std::string out;
    ASSERT_EQ(run_command(kSource + "/scripts/make_example_corpus " + dir_->file("usrdoc"), &out),
              0)
        << out;
    ASSERT_EQ(
        run_command(kSource + "/bench/make_filter_corpus " + dir_->file("manuals") + " --docs 400",
                    &out),
        0)
        << out;
    fs::remove(dir_->file("manuals/docs.txt"));  // the benchmark's copy; not JSONL input
  }
  static void TearDownTestSuite() { delete dir_; }

  // Runs `preset` over `input`; checks the summary and the output; returns the drop reasons.
  std::map<std::string, uint64_t> run_preset(const std::string& preset, const std::string& input,
                                             const std::string& out_name,
                                             const std::string& extra = "") {
    std::string out;
    std::string target = dir_->file(out_name);
    int rc = run_command(kWinnow + " run " + kSource + "/examples/" + preset + " -i " + input +
                             " -o " + target + " " + extra,
                         &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_THAT(out, HasSubstr("reconciled"));

    simdjson::dom::parser parser;
    simdjson::dom::element stats = parser.load(target + "/stats.json");
    uint64_t documents = stats["totals"]["documents"];
    uint64_t kept = stats["totals"]["kept"];
    uint64_t dropped = stats["totals"]["dropped"];
    EXPECT_EQ(documents, kept + dropped);
    EXPECT_GT(documents, 100u);
    EXPECT_GT(kept, 0u);
    EXPECT_GT(dropped, 0u);
    std::map<std::string, uint64_t> reasons;
    uint64_t sum = 0;
    for (auto [key, value] : simdjson::dom::object(stats["totals"]["dropped_by_reason"])) {
      reasons[std::string(key)] = uint64_t(value);
      sum += uint64_t(value);
    }
    EXPECT_EQ(sum, dropped);

    // Rejected records name the stage and reason, with the score.
    uint64_t rejected = 0;
    for (const auto& entry : fs::directory_iterator(target + "/rejected")) {
      std::string body = read_decompressed(entry.path().string());
      for (const std::string& line : split_lines(body)) {
        if (line.empty()) continue;
        simdjson::dom::parser line_parser;
        simdjson::dom::element record = line_parser.parse(line);
        std::string_view stage = record["winnow_drop"]["stage"];
        std::string_view reason = record["winnow_drop"]["reason"];
        EXPECT_TRUE(reasons.count(std::string(stage) + "/" + std::string(reason)))
            << stage << "/" << reason;
        // Every filter scores its drops, except C4's lorem_ipsum and curly_bracket (a phrase
        // found, no score in datatrove either).
        double score = 0;
        bool scored = record["winnow_drop"]["score"].get(score) == simdjson::SUCCESS;
        if (stage != "c4_quality" || reason == "too_few_sentences") {
          EXPECT_TRUE(scored) << stage << "/" << reason;
        }
        ++rejected;
      }
    }
    EXPECT_EQ(rejected, dropped);
    return reasons;
  }

  static TempDir* dir_;
};

TempDir* FilterPresets::dir_ = nullptr;

std::set<std::string> stages_of(const std::map<std::string, uint64_t>& reasons) {
  std::set<std::string> out;
  for (const auto& [reason, count] : reasons) out.insert(reason.substr(0, reason.find('/')));
  return out;
}

TEST_F(FilterPresets, NemoEnglishOnRealText) {
  auto usrdoc = run_preset("nemo_english.yaml", dir_->file("usrdoc"), "en_usrdoc");
  auto manuals = run_preset("nemo_english.yaml", dir_->file("manuals"), "en_manuals");
  // The chain's filters all exist in the drops of real text between them.
  std::set<std::string> stages = stages_of(usrdoc);
  for (const auto& s : stages_of(manuals)) stages.insert(s);
  EXPECT_GE(stages.size(), 6u);
  EXPECT_TRUE(stages.count("word_count"));
}

TEST_F(FilterPresets, NemoNonEnglishHasNoEnglishOnlyFilters) {
  auto reasons = run_preset("nemo_non_english.yaml", dir_->file("usrdoc"), "non_en");
  for (const auto& stage : stages_of(reasons)) {
    EXPECT_NE(stage, "non_alpha_numeric");
    EXPECT_NE(stage, "common_english_words");
    EXPECT_NE(stage, "words_without_alphabets");
  }
}

TEST_F(FilterPresets, FineWebOnRealText) {
  auto reasons = run_preset("fineweb.yaml", dir_->file("manuals"), "fineweb");
  std::set<std::string> stages = stages_of(reasons);
  EXPECT_TRUE(stages.count("gopher_quality") || stages.count("gopher_repetition"));
}

TEST_F(FilterPresets, DeterministicWhateverThreadsAndBatches) {
  run_preset("nemo_english.yaml", dir_->file("usrdoc"), "det1", "--threads 1 --batch-size 1000");
  run_preset("nemo_english.yaml", dir_->file("usrdoc"), "det2", "--threads 2 --batch-size 37");
  EXPECT_EQ(read_output_tree(dir_->file("det1")), read_output_tree(dir_->file("det2")));
  run_preset("fineweb.yaml", dir_->file("usrdoc"), "fw1", "--threads 1 --batch-size 1000");
  run_preset("fineweb.yaml", dir_->file("usrdoc"), "fw2", "--threads 2 --batch-size 37");
  EXPECT_EQ(read_output_tree(dir_->file("fw1")), read_output_tree(dir_->file("fw2")));
}

}  // namespace
}  // namespace winnow::testing
