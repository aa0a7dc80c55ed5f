#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow {
namespace {

using testing::build_stage;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::make_batch;
using testing::make_record_batch;
using testing::reasons_of;

using Values = std::map<std::string, StageParams::Value>;

constexpr const char* kKept = "kept";
constexpr const char* kNoMatch = "sel/no_match";
constexpr const char* kMissing = "sel/missing_field";

ScalarParam plain(std::string text) { return {std::move(text), false}; }
ScalarParam quoted(std::string text) { return {std::move(text), true}; }
std::vector<std::string> list(std::initializer_list<const char*> items) {
  return {items.begin(), items.end()};
}

class SelectTest : public ::testing::Test {
 protected:
  std::unique_ptr<Stage> make(const Values& values) {
    auto stage = build_stage(select_spec(), values, context_);
    EXPECT_TRUE(stage.is_ok()) << stage.status().message();
    return stage.is_ok() ? std::move(stage).value() : nullptr;
  }

  // Runs a select built from `values` over `records`; returns each document's outcome.
  std::vector<std::string> run(const Values& values, const std::vector<std::string>& records) {
    auto stage = make(values);
    if (!stage) return {};
    auto batch = make_record_batch(records);
    Status status = stage->process(*batch);
    EXPECT_TRUE(status.is_ok()) << status.message();
    return reasons_of(*batch, reasons_);
  }

  ReasonTable reasons_;
  StageContext context_{reasons_, "sel", 1, 42};
};

TEST_F(SelectTest, EqualsString) {
  EXPECT_THAT(run({{"field", std::string("lang")}, {"equals", plain("en")}},
                  {R"({"lang":"en"})", R"({"lang":"fr"})", R"({"lang":"EN"})",
                   R"({"id":1, "lang": "en", "text":"x"})", R"({"other":"en"})"}),
              ElementsAre(kKept, kNoMatch, kNoMatch, kKept, kMissing));
}

TEST_F(SelectTest, EqualsUnescapesStrings) {
  EXPECT_THAT(run({{"field", std::string("s")}, {"equals", plain("a\"b\xC3\xA9")}},
                  {R"({"s":"a\"b\u00e9"})", R"({"s":"a\\\"b"})"}),
              ElementsAre(kKept, kNoMatch));
}

TEST_F(SelectTest, EqualsNumberComparesNumerically) {
  // An unquoted 1 is a number: 1, 1.0 and 1e0 are all equal to it.
  EXPECT_THAT(run({{"field", std::string("n")}, {"equals", plain("1")}},
                  {R"({"n":1})", R"({"n":1.0})", R"({"n":1e0})", R"({"n":2})", R"({"n":-1})"}),
              ElementsAre(kKept, kKept, kKept, kNoMatch, kNoMatch));
  EXPECT_THAT(
      run({{"field", std::string("n")}, {"equals", plain("1.0")}}, {R"({"n":1})", R"({"n":1.5})"}),
      ElementsAre(kKept, kNoMatch));
}

// What happens when a quoted string meets a number, or a number a string (documented, not
// necessarily what one would design):
// - an unquoted 1 against a *string* field "1": compared as text, so it matches;
// - a quoted "1" against a *number* field: compared as text against the number as written
//   in the record, so it matches 1 but not 1.0.
TEST_F(SelectTest, QuotedAgainstNumberComparesAsText) {
  EXPECT_THAT(run({{"field", std::string("n")}, {"equals", plain("1")}},
                  {R"({"n":"1"})", R"({"n":"1.0"})", R"({"n":" 1"})"}),
              ElementsAre(kKept, kNoMatch, kNoMatch));
  EXPECT_THAT(run({{"field", std::string("n")}, {"equals", quoted("1")}},
                  {R"({"n":"1"})", R"({"n":1})", R"({"n":1.0})", R"({"n":"1.0"})"}),
              ElementsAre(kKept, kKept, kNoMatch, kNoMatch));
}

TEST_F(SelectTest, EqualsBooleanAndNested) {
  EXPECT_THAT(run({{"field", std::string("flag")}, {"equals", plain("true")}},
                  {R"({"flag":true})", R"({"flag":false})", R"({"flag":"true"})"}),
              ElementsAre(kKept, kNoMatch, kKept));
}

TEST_F(SelectTest, NotEquals) {
  EXPECT_THAT(run({{"field", std::string("lang")}, {"not_equals", plain("en")}},
                  {R"({"lang":"en"})", R"({"lang":"fr"})", R"({})"}),
              ElementsAre(kNoMatch, kKept, kMissing));
  EXPECT_THAT(run({{"field", std::string("n")}, {"not_equals", plain("0")}},
                  {R"({"n":0.0})", R"({"n":3})"}),
              ElementsAre(kNoMatch, kKept));
}

TEST_F(SelectTest, In) {
  EXPECT_THAT(run({{"field", std::string("lang")}, {"in", list({"en", "de"})}},
                  {R"({"lang":"en"})", R"({"lang":"de"})", R"({"lang":"fr"})", R"({})"}),
              ElementsAre(kKept, kKept, kNoMatch, kMissing));
  // Items compare as numbers against number fields.
  EXPECT_THAT(run({{"field", std::string("n")}, {"in", list({"1", "2"})}},
                  {R"({"n":2.0})", R"({"n":3})", R"({"n":"2"})"}),
              ElementsAre(kKept, kNoMatch, kKept));
}

TEST_F(SelectTest, EmptyInListKeepsNothingAndEmptyNotInKeepsEverything) {
  EXPECT_THAT(run({{"field", std::string("lang")}, {"in", std::vector<std::string>{}}},
                  {R"({"lang":"en"})"}),
              ElementsAre(kNoMatch));
  EXPECT_THAT(run({{"field", std::string("lang")}, {"not_in", std::vector<std::string>{}}},
                  {R"({"lang":"en"})"}),
              ElementsAre(kKept));
}

TEST_F(SelectTest, NotIn) {
  EXPECT_THAT(run({{"field", std::string("lang")}, {"not_in", list({"en", "de"})}},
                  {R"({"lang":"en"})", R"({"lang":"de"})", R"({"lang":"fr"})", R"({})"}),
              ElementsAre(kNoMatch, kNoMatch, kKept, kMissing));
}

TEST_F(SelectTest, MinAndMaxAreInclusiveAndNeedNumbers) {
  EXPECT_THAT(
      run({{"field", std::string("score")}, {"min", 0.3}, {"max", 0.8}},
          {R"({"score":0.3})", R"({"score":0.8})", R"({"score":0.5})", R"({"score":0.29})",
           R"({"score":0.81})", R"({"score":"0.5"})", R"({"score":-1})", R"({"score":[0.5]})"}),
      ElementsAre(kKept, kKept, kKept, kNoMatch, kNoMatch, kNoMatch, kNoMatch, kNoMatch));
}

TEST_F(SelectTest, MinAloneAndMaxAlone) {
  EXPECT_THAT(run({{"field", std::string("n")}, {"min", 5.0}},
                  {R"({"n":5})", R"({"n":4})", R"({"n":1e9})"}),
              ElementsAre(kKept, kNoMatch, kKept));
  EXPECT_THAT(run({{"field", std::string("n")}, {"max", int64_t{5}}},
                  {R"({"n":5})", R"({"n":6})", R"({"n":-1e9})"}),
              ElementsAre(kKept, kNoMatch, kKept));
}

TEST_F(SelectTest, ExistsTrue) {
  EXPECT_THAT(
      run({{"field", std::string("lang")}, {"exists", true}},
          {R"({"lang":"en"})", R"({"lang":""})", R"({"lang":0})", R"({})", R"({"lang":null})"}),
      ElementsAre(kKept, kKept, kKept, kMissing, kMissing));
}

TEST_F(SelectTest, ExistsFalse) {
  EXPECT_THAT(run({{"field", std::string("lang")}, {"exists", false}},
                  {R"({"lang":"en"})", R"({})", R"({"lang":null})", R"({"Lang":"en"})"}),
              ElementsAre(kNoMatch, kKept, kKept, kKept));
}

TEST_F(SelectTest, NestedFields) {
  EXPECT_THAT(run({{"field", std::string("meta.lang")}, {"equals", plain("en")}},
                  {R"({"meta":{"lang":"en"}})", R"({"meta":{"lang":"fr"}})", R"({"meta":"en"})",
                   R"({"meta":{}})", R"({"lang":"en"})", R"({"meta.lang":"en"})",
                   R"({"meta":{"lang":{"x":1}}})"}),
              ElementsAre(kKept, kNoMatch, kMissing, kMissing, kMissing, kMissing, kNoMatch));
  EXPECT_THAT(run({{"field", std::string("a.b.c")}, {"min", 2.0}},
                  {R"({"a":{"b":{"c":2}}})", R"({"a":{"b":{"c":1}}})", R"({"a":{"b":[1]}})"}),
              ElementsAre(kKept, kNoMatch, kMissing));
}

TEST_F(SelectTest, KeepMissing) {
  EXPECT_THAT(run({{"field", std::string("lang")}, {"equals", plain("en")}, {"keep_missing", true}},
                  {R"({"lang":"en"})", R"({"lang":"fr"})", R"({})", R"({"lang":null})"}),
              ElementsAre(kKept, kNoMatch, kKept, kKept));
}

TEST_F(SelectTest, ConditionsCombineWithAnd) {
  EXPECT_THAT(run({{"field", std::string("n")}, {"min", 1.0}, {"not_equals", plain("3")}},
                  {R"({"n":0})", R"({"n":2})", R"({"n":3})"}),
              ElementsAre(kNoMatch, kKept, kNoMatch));
}

TEST_F(SelectTest, UnparsableRecordCountsAsMissing) {
  EXPECT_THAT(run({{"field", std::string("lang")}, {"equals", plain("en")}},
                  {R"({"lang":"en")", R"({"lang":"en"})"}),
              ElementsAre(kMissing, kKept));
}

TEST_F(SelectTest, ReadsAnAnnotationColumnFromAnEarlierStage) {
  ReasonTable& reasons = reasons_;
  StageContext length_context(reasons, "len", 0, 42);
  auto length = build_stage(text_length_spec(), {{"annotate", true}}, length_context);
  ASSERT_TRUE(length.is_ok()) << length.status().message();
  auto select = make({{"field", std::string("len")}, {"min", 3.0}});
  ASSERT_NE(select, nullptr);

  // The record has its own "len" field: the annotation wins.
  auto batch = make_batch({{"ab", R"({"len":100})"}, {"abc", R"({"len":0})"}, {"abcd", "{}"}});
  ASSERT_TRUE(length.value()->process(*batch).is_ok());
  ASSERT_TRUE(select->process(*batch).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_), ElementsAre(kNoMatch, kKept, kKept));
}

TEST_F(SelectTest, AnnotationTypes) {
  auto batch = make_batch({{"", R"({"q":0.9})"}, {"", "{}"}, {"", "{}"}});
  AnnotationColumn& floats = batch->annotation("q", AnnotationType::kFloat);
  floats.set_float(0, 0.25);
  floats.set_float(1, 0.75);
  // Row 2 has no value: missing, even though the record has no such field either.
  auto by_float = make({{"field", std::string("q")}, {"min", 0.5}});
  ASSERT_NE(by_float, nullptr);
  ASSERT_TRUE(by_float->process(*batch).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_), ElementsAre(kNoMatch, kKept, kMissing));

  auto tagged = make_batch({{"", "{}"}, {"", "{}"}});
  AnnotationColumn& strings = tagged->annotation("tag", AnnotationType::kString);
  strings.set_string(0, "good");
  strings.set_string(1, "bad");
  auto by_string = make({{"field", std::string("tag")}, {"in", list({"good", "fine"})}});
  ASSERT_NE(by_string, nullptr);
  ASSERT_TRUE(by_string->process(*tagged).is_ok());
  EXPECT_THAT(reasons_of(*tagged, reasons_), ElementsAre(kKept, kNoMatch));

  auto counted = make_batch({{"", "{}"}, {"", "{}"}});
  AnnotationColumn& ints = counted->annotation("count", AnnotationType::kInt);
  ints.set_int(0, 7);
  ints.set_int(1, 8);
  auto by_int = make({{"field", std::string("count")}, {"equals", plain("7.0")}});
  ASSERT_NE(by_int, nullptr);
  ASSERT_TRUE(by_int->process(*counted).is_ok());
  EXPECT_THAT(reasons_of(*counted, reasons_), ElementsAre(kKept, kNoMatch));
}

TEST_F(SelectTest, AlreadyDroppedDocumentsAreLeftAlone) {
  auto stage = make({{"field", std::string("lang")}, {"equals", plain("en")}});
  ASSERT_NE(stage, nullptr);
  auto batch = make_record_batch({R"({"lang":"fr"})", R"({})", R"({"lang":"fr"})"});
  ReasonId earlier = reasons_.add("earlier", 0, "gone");
  batch->drop(0, earlier, 1.5);
  batch->drop(1, earlier);
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_), ElementsAre("earlier/gone", "earlier/gone", kNoMatch));
  EXPECT_EQ(batch->drop_score(0), 1.5);
}

TEST_F(SelectTest, NoConditionIsAnError) {
  auto none = build_stage(select_spec(), {{"field", std::string("lang")}}, context_);
  ASSERT_FALSE(none.is_ok());
  EXPECT_THAT(none.status().message(), HasSubstr("at least one condition"));
  auto only_keep = build_stage(select_spec(),
                               {{"field", std::string("lang")}, {"keep_missing", true}}, context_);
  EXPECT_FALSE(only_keep.is_ok());
}

TEST_F(SelectTest, FieldIsRequired) {
  auto stage = build_stage(select_spec(), {{"equals", plain("x")}}, context_);
  ASSERT_FALSE(stage.is_ok());
  EXPECT_THAT(stage.status().message(), HasSubstr("'field'"));
}

}  // namespace
}  // namespace winnow
