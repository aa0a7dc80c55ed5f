// pii_redact: the four actions, per-entity choices, determinism of replace and hash, the drop
// reason and score, the annotation, parameter errors; and an end-to-end run of the winnow
// binary whose output and stats.json say what was done.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "stages/step_counts.h"
#include "test_support.h"
#include "text/pii_detectors.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kDoc =
    "Mail john.doe@example.com or call (202) 555-0143. Card 4111 1111 1111 1111, IBAN "
    "DE89 3704 0044 0532 0130 00, SSN 078-05-1120, host 192.168.1.20, repo "
    "https://bob:s3cret@git.example.com/x.git";
const std::string kClean = "Version 1.2.3.4.5 shipped on 2024-01-15 with 10.0.0.256 fixed.";

std::unique_ptr<Stage> make(const std::map<std::string, StageParams::Value>& values,
                            StageContext& context) {
  auto stage = build_stage(pii_redact_spec(), values, context);
  EXPECT_TRUE(stage.is_ok()) << stage.status().message();
  return stage.is_ok() ? std::move(stage.value()) : nullptr;
}

TEST(PiiRedact, RedactsWithTypedPlaceholders) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  auto stage = make({{"annotate", true}}, context);
  auto batch = make_text_batch({kDoc, kClean, kDoc});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  // Counts per entity and documents changed, keyed by the stage's name.
  EXPECT_EQ(batch->stage_counts,
            (std::map<std::string, uint64_t>{{"pii/EMAIL_ADDRESS", 2}, {"pii/PHONE_NUMBER", 2},
                                             {"pii/CREDIT_CARD", 2}, {"pii/IBAN_CODE", 2},
                                             {"pii/US_SSN", 2}, {"pii/IP_ADDRESS", 2},
                                             {"pii/URL_CREDENTIALS", 2},
                                             {"pii/documents_changed", 2}}));
  EXPECT_EQ(batch->text(0),
            "Mail <EMAIL_ADDRESS> or call <PHONE_NUMBER>. Card <CREDIT_CARD>, IBAN <IBAN_CODE>, "
            "SSN <US_SSN>, host <IP_ADDRESS>, repo <URL_CREDENTIALS>/x.git");
  EXPECT_EQ(batch->text(1), kClean);
  EXPECT_FALSE(batch->text_changed(1));
  EXPECT_EQ(batch->kept_count(), 3u);
  EXPECT_EQ(batch->text(2), batch->text(0));
  const AnnotationColumn* counts = batch->find_annotation("pii");
  ASSERT_NE(counts, nullptr);
  EXPECT_EQ(counts->int_at(0), 7);
  EXPECT_EQ(counts->int_at(1), 0);
}

TEST(PiiRedact, OnlyTheEntitiesAskedFor) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  auto stage = make({{"entities", std::vector<std::string>{"EMAIL_ADDRESS", "US_SSN"}}}, context);
  auto batch = make_text_batch({kDoc});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_THAT(std::string(batch->text(0)), HasSubstr("Mail <EMAIL_ADDRESS> or call (202) 555-0143"));
  EXPECT_THAT(std::string(batch->text(0)), HasSubstr("SSN <US_SSN>, host 192.168.1.20"));
}

TEST(PiiRedact, ReplaceAndHashAreStableAndSeeded) {
  auto run = [](const std::string& action, int64_t seed, const std::string& text) {
    ReasonTable reasons;
    StageContext context(reasons, "pii", 0, 42);
    auto stage = make({{"action", action}, {"seed", seed}}, context);
    auto batch = make_text_batch({text});
    EXPECT_TRUE(stage->process(*batch).is_ok());
    return std::string(batch->text(0));
  };
  for (const std::string action : {"replace", "hash"}) {
    SCOPED_TRACE(action);
    std::string first = run(action, 7, kDoc);
    EXPECT_EQ(run(action, 7, kDoc), first);
    EXPECT_NE(run(action, 8, kDoc), first);
    EXPECT_THAT(first, Not(HasSubstr("john.doe@example.com")));
    EXPECT_THAT(first, Not(HasSubstr("078-05-1120")));
    EXPECT_THAT(first, Not(HasSubstr("s3cret")));
    // The same value gets the same stand-in wherever it appears.
    std::string twice = run(action, 7, "a john.doe@example.com b john.doe@example.com c");
    size_t b = twice.find(" b "), c = twice.find(" c");
    EXPECT_EQ(twice.substr(2, b - 2), twice.substr(b + 3, c - b - 3));
  }
  // replace: fakes of the same kinds, found again as those kinds, seven of them.
  std::string replaced = run("replace", 7, kDoc);
  std::vector<PiiSpan> spans;
  find_pii(replaced, kAllPiiEntities, spans);
  std::vector<PiiEntity> kinds;
  for (const auto& s : spans) kinds.push_back(s.entity);
  EXPECT_EQ(kinds, (std::vector<PiiEntity>{PiiEntity::kEmailAddress, PiiEntity::kPhoneNumber,
                                           PiiEntity::kCreditCard, PiiEntity::kIbanCode,
                                           PiiEntity::kUsSsn, PiiEntity::kIpAddress,
                                           PiiEntity::kUrlCredentials}));
  EXPECT_THAT(replaced, HasSubstr("@git.example.com/x.git"));  // the host and path stay
  // hash: 16 hex digits in place of each.
  EXPECT_THAT(run("hash", 7, "mail john.doe@example.com now"),
              ::testing::MatchesRegex("mail [0-9a-f]{16} now"));
}

TEST(PiiRedact, PerEntityActionsAndDrop) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  auto stage = make({{"action", std::string("redact")},
                     {"actions", std::vector<std::string>{"CREDIT_CARD:drop", "EMAIL_ADDRESS:hash"}}},
                    context);
  auto batch = make_text_batch({kDoc, "write to john.doe@example.com or (202) 555-0143", kClean});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  // A card: the document goes, reason pii, score the number of entities found.
  EXPECT_EQ(reason_of(*batch, reasons, 0), "pii/pii");
  EXPECT_EQ(batch->drop_score(0), 7.0);
  EXPECT_EQ(batch->text(0), kDoc);
  EXPECT_THAT(std::string(batch->text(1)),
              ::testing::MatchesRegex("write to [0-9a-f]{16} or <PHONE_NUMBER>"));
  EXPECT_EQ(reason_of(*batch, reasons, 2), "kept");
}

TEST(PiiRedact, LeavesDroppedDocumentsAlone) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  ReasonId earlier = context.declare_reason("earlier");
  auto stage = make({}, context);
  auto batch = make_text_batch({kDoc});
  batch->drop(0, earlier);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->text(0), kDoc);
}

TEST(PiiRedact, ParameterErrorsNameTheKey) {
  ReasonTable reasons;
  StageContext context(reasons, "pii", 0, 42);
  auto bad_action = build_stage(pii_redact_spec(), {{"action", std::string("mask")}}, context);
  ASSERT_FALSE(bad_action.is_ok());
  EXPECT_THAT(bad_action.status().message(), HasSubstr("action"));
  EXPECT_THAT(bad_action.status().message(), HasSubstr("mask"));
  auto bad_entity = build_stage(
      pii_redact_spec(), {{"entities", std::vector<std::string>{"PERSON"}}}, context);
  ASSERT_FALSE(bad_entity.is_ok());
  EXPECT_THAT(bad_entity.status().message(), HasSubstr("PERSON"));
  auto bad_entry = build_stage(
      pii_redact_spec(), {{"actions", std::vector<std::string>{"CREDIT_CARD"}}}, context);
  ASSERT_FALSE(bad_entry.is_ok());
  EXPECT_THAT(bad_entry.status().message(), HasSubstr("ENTITY:action"));
}

// Registered, for documents, and declared to read nothing of the record by name (so a pass
// through it reads only the text and id columns of a Parquet input).
TEST(PiiRedact, RegisteredAsATextOnlyStage) {
  StageRegistry registry;
  register_builtin_stages(registry);
  const StageSpec* spec = registry.find("pii_redact");
  ASSERT_NE(spec, nullptr);
  EXPECT_TRUE(spec->takes.has(ItemKind::kDocument));
  EXPECT_FALSE(spec->takes.has(ItemKind::kImage));
  ASSERT_TRUE(bool(spec->record_fields));
  auto params = StageParams::from_values({}, spec->params, "pii_redact");
  ASSERT_TRUE(params.is_ok());
  RecordFields fields = spec->record_fields(params.value());
  EXPECT_FALSE(fields.any);
  EXPECT_TRUE(fields.names.empty());
}

// Through the binary: redacted output, the dropped document under rejected/ with its reason,
// and the counts in stats.json.
TEST(PiiRedact, EndToEndThroughWinnow) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("in"));
  write_file(dir.file("in/docs.jsonl"),
             "{\"id\":\"a\",\"text\":\"Mail john.doe@example.com or ops@corp.io, IP 10.0.0.1\"}\n"
             "{\"id\":\"b\",\"text\":\"Card 4111 1111 1111 1111 on file\"}\n"
             "{\"id\":\"c\",\"text\":\"Nothing here but 1.2.3.4.5 and 2024-01-15\"}\n");
  std::string pipeline = pipeline_file(dir, R"(
stages:
  - {stage: pii_redact, name: scrub, actions: ['CREDIT_CARD:drop'], annotate: true}
)");
  std::string output;
  ASSERT_EQ(winnow("run " + pipeline + " --input " + dir.file("in") + " --output " +
                       dir.file("out") + " --output-format jsonl --threads 2",
                   &output),
            0)
      << output;
  std::string kept = read_file(dir.file("out/docs.jsonl"));
  EXPECT_THAT(kept, HasSubstr("Mail <EMAIL_ADDRESS> or <EMAIL_ADDRESS>, IP <IP_ADDRESS>"));
  EXPECT_THAT(kept, HasSubstr("\"scrub\":3"));
  EXPECT_THAT(kept, HasSubstr("Nothing here but 1.2.3.4.5 and 2024-01-15"));
  EXPECT_THAT(kept, Not(HasSubstr("4111")));
  std::string rejected = read_decompressed(dir.file("out/rejected/docs.jsonl"));
  EXPECT_THAT(rejected, HasSubstr("\"stage\":\"scrub\",\"reason\":\"pii\",\"score\":1"));

  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(dir.file("out/stats.json"));
  EXPECT_EQ(uint64_t(stats["totals"]["dropped_by_reason"]["scrub/pii"]), 1u);
  EXPECT_TRUE(bool(stats["reconciles"]));
  // The step's counts: entities found per kind (the dropped document's card too) and the
  // documents rewritten.
  EXPECT_EQ(step_counts(dir.file("out/stats.json"), "scrub"),
            (std::map<std::string, uint64_t>{{"CREDIT_CARD", 1},
                                             {"EMAIL_ADDRESS", 2},
                                             {"IP_ADDRESS", 1},
                                             {"documents_changed", 1}}));
}

}  // namespace
}  // namespace winnow::testing
