// pii_redact with its optional named-entity model: a model whose planted logits make known
// words persons, locations and organisations (tests/models/ner_test_models.h), so the redacted
// text is known exactly; rule spans winning over the model's; per-entity actions; long documents
// in windows; counts in stats.json through the binary; and without a model, names untouched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "models/ner_test_models.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "stages/step_counts.h"
#include "test_support.h"
#include "text/pii_detectors.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

class PiiRedactNer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    build_ner_model(dir_->file("ner"));
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::unique_ptr<Stage> make(std::map<std::string, StageParams::Value> values,
                                     StageContext& context) {
    values.emplace("ner_model", dir_->file("ner"));
    auto stage = build_stage(pii_redact_spec(), values, context);
    if (!stage.is_ok()) throw std::runtime_error(stage.status().message());
    return std::move(stage).value();
  }
  static TempDir* dir_;
};
TempDir* PiiRedactNer::dir_ = nullptr;

// Words the tokenizer does not know are [UNK], which the model labels O.
const std::string kText = "Alice Smith mailed bob@example.com from Paris at Acme Corp today.";

TEST_F(PiiRedactNer, RedactsThePlantedEntitiesAndCountsThem) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  auto stage = make({{"annotate", true}}, context);
  auto batch = make_text_batch({kText, "nothing in here", "Bob Jones, in Berlin."});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  // "bob" alone would be a person, but it is inside the e-mail address: the rule's span wins.
  EXPECT_EQ(batch->text(0),
            "<PERSON> mailed <EMAIL_ADDRESS> from <LOCATION> at <ORGANIZATION> today.");
  EXPECT_EQ(batch->text(1), "nothing in here");
  EXPECT_EQ(batch->text(2), "<PERSON>, in <LOCATION>.");
  EXPECT_EQ(batch->stage_counts, (std::map<std::string, uint64_t>{{"pii/PERSON", 2},
                                                                  {"pii/LOCATION", 2},
                                                                  {"pii/ORGANIZATION", 1},
                                                                  {"pii/EMAIL_ADDRESS", 1},
                                                                  {"pii/documents_changed", 2}}));
  EXPECT_EQ(batch->find_annotation("pii")->int_at(0), 4);
}

TEST_F(PiiRedactNer, PerEntityActionsAndTheEntitiesAskedFor) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  auto stage = make({{"ner_entities", std::vector<std::string>{"PERSON", "ORGANIZATION"}},
                     {"actions", std::vector<std::string>{"PERSON:replace", "ORGANIZATION:hash",
                                                          "EMAIL_ADDRESS:drop"}}},
                    context);
  auto batch = make_text_batch(
      {"Alice Smith met Bob in Paris at Acme Corp.", kText, "Alice Smith and Alice Smith"});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  // Two-word persons get a first name and a surname; Bob a surname; Paris stays (not asked).
  EXPECT_THAT(std::string(batch->text(0)),
              ::testing::MatchesRegex("[A-Z][a-z]+ [A-Z][a-z]+ met [A-Z][a-z]+ in Paris at "
                                      "[0-9a-f]{16}\\."));
  EXPECT_EQ(reason_of(*batch, reasons, 1), "pii/pii");  // its e-mail address drops it
  // One name, one stand-in.
  const std::string twice(batch->text(2));
  const size_t and_at = twice.find(" and ");
  EXPECT_EQ(twice.substr(0, and_at), twice.substr(and_at + 5));
  EXPECT_EQ(twice.find("Alice"), std::string::npos);
}

TEST_F(PiiRedactNer, LongDocumentsRunInSeveralWindows) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  auto stage = make({{"ner_max_tokens", int64_t{6}}}, context);
  std::string text, expected;
  for (int k = 0; k < 50; ++k) {
    text += "Alice Smith met Bob in Paris, the Acme Corp. ";
    expected += "<PERSON> met <PERSON> in <LOCATION>, the <ORGANIZATION>. ";
  }
  auto batch = make_text_batch({text, "Berlin"});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->text(0), expected);
  EXPECT_EQ(batch->text(1), "<LOCATION>");
  EXPECT_EQ(batch->stage_counts.at("pii/PERSON"), 100u);
}

TEST_F(PiiRedactNer, WithoutAModelNamesAreLeftAlone) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  auto stage = build_stage(pii_redact_spec(), {}, context);
  ASSERT_TRUE(stage.is_ok());
  auto batch = make_text_batch({kText});
  ASSERT_TRUE(stage.value()->process(*batch).is_ok());
  EXPECT_EQ(batch->text(0), "Alice Smith mailed <EMAIL_ADDRESS> from Paris at Acme Corp today.");
  EXPECT_EQ(batch->stage_counts, (std::map<std::string, uint64_t>{{"pii/EMAIL_ADDRESS", 1},
                                                                  {"pii/documents_changed", 1}}));
}

TEST_F(PiiRedactNer, ParameterErrorsNameTheKey) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  auto rule_entity =
      build_stage(pii_redact_spec(), {{"entities", std::vector<std::string>{"PERSON"}}}, context);
  ASSERT_FALSE(rule_entity.is_ok());
  EXPECT_THAT(rule_entity.status().message(), HasSubstr("ner_entities"));
  auto no_model = build_stage(pii_redact_spec(),
                              {{"ner_entities", std::vector<std::string>{"PERSON"}}}, context);
  ASSERT_FALSE(no_model.is_ok());
  EXPECT_THAT(no_model.status().message(), HasSubstr("needs ner_model"));
  auto model_rule = build_stage(
      pii_redact_spec(),
      {{"ner_model", dir_->file("ner")}, {"ner_entities", std::vector<std::string>{"US_SSN"}}},
      context);
  ASSERT_FALSE(model_rule.is_ok());
  EXPECT_THAT(model_rule.status().message(), HasSubstr("US_SSN"));
  auto missing = build_stage(pii_redact_spec(), {{"ner_model", dir_->file("none")}}, context);
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("ner_model"));
}

// Through the binary: the model's entities counted per kind in stats.json, with the rules'.
TEST_F(PiiRedactNer, EndToEndThroughWinnow) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("in"));
  write_file(dir.file("in/docs.jsonl"),
             "{\"id\":\"a\",\"text\":\"" + kText +
                 "\"}\n"
                 "{\"id\":\"b\",\"text\":\"Bob Jones flew from Berlin to New York\"}\n");
  std::string pipeline = pipeline_file(dir,
                                       "stages:\n  - {stage: pii_redact, name: scrub, "
                                       "ner_model: " +
                                           dir_->file("ner") + "}\n");
  std::string output;
  ASSERT_EQ(winnow("run " + pipeline + " --input " + dir.file("in") + " --output " +
                       dir.file("out") + " --output-format jsonl --threads 2",
                   &output),
            0)
      << output;
  std::string kept = read_file(dir.file("out/docs.jsonl"));
  EXPECT_THAT(kept, HasSubstr("<PERSON> mailed <EMAIL_ADDRESS> from <LOCATION> at "
                              "<ORGANIZATION> today."));
  EXPECT_THAT(kept, HasSubstr("<PERSON> flew from <LOCATION> to New <LOCATION>"));
  const auto counts = step_counts(dir.file("out/stats.json"), "scrub");
  EXPECT_EQ(counts.at("PERSON"), 2u);
  EXPECT_EQ(counts.at("LOCATION"), 3u);
  EXPECT_EQ(counts.at("ORGANIZATION"), 1u);
  EXPECT_EQ(counts.at("EMAIL_ADDRESS"), 1u);
  EXPECT_EQ(counts.at("documents_changed"), 2u);
  // The report lists the step's counts, the model's entities among them.
  EXPECT_THAT(read_file(dir.file("out/report.html")), HasSubstr("ORGANIZATION"));
}

}  // namespace
}  // namespace winnow::testing
