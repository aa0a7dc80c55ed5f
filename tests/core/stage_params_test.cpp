#include "core/stage_params.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <string>
#include <vector>

namespace winnow {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<ParamSpec> all_types() {
  return {
      {"count", ParamType::kInt, "7", "an int"},
      {"ratio", ParamType::kFloat, "0.5", "a float"},
      {"flag", ParamType::kBool, "false", "a bool"},
      {"label", ParamType::kString, "none", "a string"},
      {"tags", ParamType::kStringList, "", "a list"},
      {"value", ParamType::kScalar, "", "any scalar"},
  };
}

// Parses the stage at stages[0] of `yaml` (so the stage does not start on line 1).
Result<StageParams> parse_stage(const std::string& yaml, const std::vector<ParamSpec>& specs) {
  YAML::Node root = YAML::Load(yaml);
  YAML::Node stage = root["stages"][0];
  return StageParams::parse(stage, specs, {"stage", "name", "workers"}, "f.yaml", "lbl");
}

Result<StageParams> parse_map(const std::string& yaml, const std::vector<ParamSpec>& specs) {
  return StageParams::parse(YAML::Load(yaml), specs, {}, "f.yaml", "lbl");
}

TEST(StageParams, ConvertsEveryType) {
  auto p = parse_map(
      "count: -12\n"
      "ratio: 2.5e-1\n"
      "flag: true\n"
      "label: hello world\n"
      "tags: [a, 'b c', \"d\"]\n"
      "value: 3.5\n",
      all_types());
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_EQ(p->get_int("count"), -12);
  EXPECT_DOUBLE_EQ(p->get_float("ratio"), 0.25);
  EXPECT_TRUE(p->get_bool("flag"));
  EXPECT_EQ(p->get_string("label"), "hello world");
  EXPECT_EQ(p->get_string_list("tags"), (std::vector<std::string>{"a", "b c", "d"}));
  EXPECT_EQ(p->get_scalar("value").text, "3.5");
  EXPECT_FALSE(p->get_scalar("value").quoted);
  for (const char* key : {"count", "ratio", "flag", "label", "tags", "value"}) {
    EXPECT_TRUE(p->given(key)) << key;
    EXPECT_TRUE(p->has(key)) << key;
  }
}

TEST(StageParams, FloatAcceptsIntegersAndInfinity) {
  auto p = parse_map("ratio: 3\n", all_types());
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_DOUBLE_EQ(p->get_float("ratio"), 3.0);

  auto inf = parse_map("ratio: .inf\n", all_types());
  ASSERT_TRUE(inf.is_ok()) << inf.status().message();
  EXPECT_TRUE(std::isinf(inf->get_float("ratio")));
  EXPECT_GT(inf->get_float("ratio"), 0);
}

TEST(StageParams, BoolSpellings) {
  for (const char* text : {"true", "True", "yes"}) {
    auto p = parse_map(std::string("flag: ") + text + "\n", all_types());
    ASSERT_TRUE(p.is_ok()) << text << ": " << p.status().message();
    EXPECT_TRUE(p->get_bool("flag")) << text;
  }
  for (const char* text : {"false", "False", "no"}) {
    auto p = parse_map(std::string("flag: ") + text + "\n", all_types());
    ASSERT_TRUE(p.is_ok()) << text << ": " << p.status().message();
    EXPECT_FALSE(p->get_bool("flag")) << text;
  }
  auto bad = parse_map("flag: maybe\n", all_types());
  ASSERT_FALSE(bad.is_ok());
  EXPECT_EQ(bad.status().message(),
            "f.yaml:1: stage 'lbl': parameter 'flag' must be a boolean, got 'maybe'");
}

TEST(StageParams, SingleStringIsAListOfOne) {
  auto p = parse_map("tags: solo\n", all_types());
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_EQ(p->get_string_list("tags"), (std::vector<std::string>{"solo"}));
}

TEST(StageParams, SkipKeysAreIgnored) {
  auto p = parse_stage(
      "stages:\n"
      "  - stage: thing\n"
      "    name: mine\n"
      "    workers: 3\n"
      "    count: 1\n",
      all_types());
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_EQ(p->get_int("count"), 1);
  EXPECT_FALSE(p->has("stage"));
  EXPECT_FALSE(p->given("workers"));
}

TEST(StageParams, UnknownKeyNamesFileLineStageKeyAndKnownKeys) {
  auto p = parse_stage(
      "# a comment\n"
      "stages:\n"
      "  - stage: thing\n"
      "    count: 1\n"
      "    colour: red\n",
      all_types());
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.status().message(),
            "f.yaml:5: stage 'lbl': unknown parameter 'colour' "
            "(known: count, ratio, flag, label, tags, value)");
}

enum class Shape { kCircle, kSquare, kStar };

TEST(StageParams, ChoiceGivesTheValueItNames) {
  const std::vector<ParamSpec> specs = {{"shape", ParamType::kString, "circle", "a shape"}};
  const std::initializer_list<std::pair<std::string_view, Shape>> shapes = {
      {"circle", Shape::kCircle}, {"square", Shape::kSquare}, {"star", Shape::kStar}};
  auto defaulted = parse_map("{}", specs);
  ASSERT_TRUE(defaulted.is_ok());
  auto circle = defaulted->get_choice<Shape>("shape", shapes);
  ASSERT_TRUE(circle.is_ok());
  EXPECT_EQ(*circle, Shape::kCircle);
  auto given = parse_map("shape: star", specs);
  ASSERT_TRUE(given.is_ok());
  auto star = given->get_choice<Shape>("shape", shapes);
  ASSERT_TRUE(star.is_ok());
  EXPECT_EQ(*star, Shape::kStar);
}

TEST(StageParams, ChoiceOutsideTheSetNamesEveryChoiceAndTheLine) {
  const std::vector<ParamSpec> specs = {{"shape", ParamType::kString, "circle", "a shape"}};
  auto p = parse_stage(
      "stages:\n"
      "  - stage: thing\n"
      "    shape: Square\n",
      specs);
  ASSERT_TRUE(p.is_ok());
  auto three = p->get_choice<Shape>(
      "shape", {{"circle", Shape::kCircle}, {"square", Shape::kSquare}, {"star", Shape::kStar}});
  ASSERT_FALSE(three.is_ok());
  EXPECT_EQ(three.status().message(),
            "f.yaml:3: stage 'lbl': parameter 'shape': must be circle, square or star, not "
            "'Square'");  // choices are matched exactly, case included
  auto two = p->get_choice<Shape>("shape", {{"circle", Shape::kCircle}, {"star", Shape::kStar}});
  ASSERT_FALSE(two.is_ok());
  EXPECT_THAT(two.status().message(), HasSubstr("must be circle or star, not 'Square'"));
}

TEST(StageParams, UnknownKeyWithNoParametersSaysNone) {
  auto p = parse_map("x: 1\n", {});
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.status().message(), "f.yaml:1: stage 'lbl': unknown parameter 'x' (known: none)");
}

TEST(StageParams, StringForIntIsAnError) {
  auto p = parse_stage(
      "stages:\n"
      "  - stage: thing\n"
      "    count: many\n",
      all_types());
  ASSERT_FALSE(p.is_ok());
  // (The message says "a integer": the article is not adjusted to the type name.)
  EXPECT_THAT(p.status().message(),
              StartsWith("f.yaml:3: stage 'lbl': parameter 'count' must be a"));
  EXPECT_THAT(p.status().message(), HasSubstr("integer, got 'many'"));
}

TEST(StageParams, QuotedNumberForIntIsAnError) {
  for (const char* value : {"\"5\"", "'5'"}) {
    auto p = parse_stage(std::string("stages:\n  - stage: thing\n\n    count: ") + value + "\n",
                         all_types());
    ASSERT_FALSE(p.is_ok()) << value;
    EXPECT_THAT(p.status().message(), StartsWith("f.yaml:4: stage 'lbl': parameter 'count'"))
        << value;
    EXPECT_THAT(p.status().message(), HasSubstr("got '5'")) << value;
  }
  // Quoted numbers are not numbers for floats and booleans either.
  EXPECT_FALSE(parse_map("ratio: \"0.5\"\n", all_types()).is_ok());
  EXPECT_FALSE(parse_map("flag: \"true\"\n", all_types()).is_ok());
}

TEST(StageParams, NonIntegralOrOverflowingIntIsAnError) {
  EXPECT_FALSE(parse_map("count: 2.5\n", all_types()).is_ok());
  EXPECT_FALSE(parse_map("count: 99999999999999999999\n", all_types()).is_ok());
  EXPECT_FALSE(parse_map("count: 5abc\n", all_types()).is_ok());
  EXPECT_FALSE(parse_map("ratio: 1.5x\n", all_types()).is_ok());
}

TEST(StageParams, ListForStringReportsTheLineOfTheValue) {
  // The value starts on the line after its key: the message names the value's line.
  auto p = parse_stage(
      "stages:\n"
      "  - stage: thing\n"
      "    label:\n"
      "      - a\n"
      "      - b\n",
      all_types());
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.status().message(),
            "f.yaml:4: stage 'lbl': parameter 'label' must be a string, got a list");
}

TEST(StageParams, MapForListIsAnError) {
  auto p = parse_stage(
      "stages:\n"
      "  - stage: thing\n"
      "    tags:\n"
      "      a: 1\n",
      all_types());
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.status().message(),
            "f.yaml:4: stage 'lbl': parameter 'tags' must be a list of strings, got a map");
}

TEST(StageParams, NestedListInListIsAnError) {
  auto p = parse_map("tags: [a, [b, c]]\n", all_types());
  ASSERT_FALSE(p.is_ok());
  EXPECT_THAT(p.status().message(), StartsWith("f.yaml:1: stage 'lbl': parameter 'tags'"));
  EXPECT_THAT(p.status().message(), HasSubstr("list of strings"));
}

TEST(StageParams, MapOrListForScalarIsAnError) {
  auto list = parse_map("value: [1]\n", all_types());
  ASSERT_FALSE(list.is_ok());
  EXPECT_EQ(list.status().message(),
            "f.yaml:1: stage 'lbl': parameter 'value' must be a scalar, got a list");
  EXPECT_FALSE(parse_map("value: {a: 1}\n", all_types()).is_ok());
}

TEST(StageParams, EmptyValueForIntIsAnError) {
  auto p = parse_map("count:\n", all_types());
  ASSERT_FALSE(p.is_ok());
  EXPECT_THAT(p.status().message(), HasSubstr("parameter 'count' must be a"));
  EXPECT_THAT(p.status().message(), HasSubstr("integer, got nothing"));
}

TEST(StageParams, RequiredMissingIsAnErrorAtTheStageLine) {
  std::vector<ParamSpec> specs = {{"field", ParamType::kString, "", "the field", true},
                                  {"count", ParamType::kInt, "1", "n"}};
  auto p = parse_stage(
      "stages:\n"
      "  - count: 2\n"
      "    stage: thing\n",
      specs);
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.status().message(),
            "f.yaml:2: stage 'lbl': missing required parameter 'field' (string: the field)");

  auto given = parse_stage("stages:\n  - stage: thing\n    field: text\n", specs);
  ASSERT_TRUE(given.is_ok()) << given.status().message();
  EXPECT_EQ(given->get_string("field"), "text");
}

TEST(StageParams, DefaultsAreAppliedButNotGiven) {
  auto p = parse_map("{}", all_types());
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_EQ(p->get_int("count"), 7);
  EXPECT_DOUBLE_EQ(p->get_float("ratio"), 0.5);
  EXPECT_FALSE(p->get_bool("flag"));
  EXPECT_EQ(p->get_string("label"), "none");
  // An empty default: an empty list, and no scalar at all.
  EXPECT_TRUE(p->has("tags"));
  EXPECT_TRUE(p->get_string_list("tags").empty());
  EXPECT_FALSE(p->has("value"));
  for (const char* key : {"count", "ratio", "flag", "label", "tags", "value"}) {
    EXPECT_FALSE(p->given(key)) << key;
  }
}

TEST(StageParams, OptionalIntWithoutDefaultIsAbsent) {
  std::vector<ParamSpec> specs = {{"limit", ParamType::kInt, "", "no default"},
                                  {"name", ParamType::kString, "", "empty default"}};
  auto p = parse_map("{}", specs);
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_FALSE(p->has("limit"));
  EXPECT_TRUE(p->has("name"));
  EXPECT_EQ(p->get_string("name"), "");
}

TEST(StageParams, BadDefaultIsReported) {
  std::vector<ParamSpec> specs = {{"count", ParamType::kInt, "lots", "bad default"}};
  auto p = parse_map("{}", specs);
  ASSERT_FALSE(p.is_ok());
  EXPECT_THAT(p.status().message(), HasSubstr("bad default for 'count'"));
}

TEST(StageParams, ScalarKeepsWhetherItWasQuoted) {
  auto plain = parse_map("value: 1\n", all_types());
  ASSERT_TRUE(plain.is_ok());
  EXPECT_EQ(plain->get_scalar("value").text, "1");
  EXPECT_FALSE(plain->get_scalar("value").quoted);

  auto doubled = parse_map("value: \"1\"\n", all_types());
  ASSERT_TRUE(doubled.is_ok());
  EXPECT_EQ(doubled->get_scalar("value").text, "1");
  EXPECT_TRUE(doubled->get_scalar("value").quoted);

  auto single = parse_map("value: '1'\n", all_types());
  ASSERT_TRUE(single.is_ok());
  EXPECT_EQ(single->get_scalar("value").text, "1");
  EXPECT_TRUE(single->get_scalar("value").quoted);

  auto word = parse_map("value: hello\n", all_types());
  ASSERT_TRUE(word.is_ok());
  EXPECT_EQ(word->get_scalar("value").text, "hello");
  EXPECT_FALSE(word->get_scalar("value").quoted);
}

TEST(StageParams, NotAMapIsAnError) {
  auto p = parse_stage("stages:\n  - just a string\n", all_types());
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.status().message(), "f.yaml:2: stage 'lbl': expected a map of parameters");
}

TEST(StageParams, FromValuesTakesTypedValuesAndDefaults) {
  auto p = StageParams::from_values({{"count", int64_t{3}},
                                     {"tags", std::vector<std::string>{"x", "y"}},
                                     {"value", ScalarParam{"1", true}}},
                                    all_types(), "lbl");
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_EQ(p->get_int("count"), 3);
  EXPECT_TRUE(p->given("count"));
  EXPECT_EQ(p->get_string_list("tags"), (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(p->get_scalar("value").quoted);
  EXPECT_DOUBLE_EQ(p->get_float("ratio"), 0.5);
  EXPECT_FALSE(p->given("ratio"));
  EXPECT_EQ(p->get_string("label"), "none");
}

TEST(StageParams, FromValuesGetFloatAcceptsAnInt) {
  auto p = StageParams::from_values({{"ratio", int64_t{2}}}, all_types(), "lbl");
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  EXPECT_DOUBLE_EQ(p->get_float("ratio"), 2.0);
}

TEST(StageParams, FromValuesRejectsUnknownKeys) {
  auto p = StageParams::from_values({{"colour", std::string("red")}}, all_types(), "lbl");
  ASSERT_FALSE(p.is_ok());
  EXPECT_EQ(p.status().message(), "stage 'lbl': unknown parameter 'colour'");
}

TEST(StageParams, FromValuesRejectsMissingRequired) {
  std::vector<ParamSpec> specs = {{"field", ParamType::kString, "", "the field", true}};
  auto p = StageParams::from_values({}, specs, "lbl");
  ASSERT_FALSE(p.is_ok());
  EXPECT_THAT(p.status().message(), HasSubstr("missing required parameter 'field'"));
}

TEST(StageParams, ErrorNamesTheKeyLineOrTheStageLine) {
  auto p = parse_stage(
      "stages:\n"
      "  - stage: thing\n"
      "    label: x\n"
      "\n"
      "    count: 4\n",
      all_types());
  ASSERT_TRUE(p.is_ok()) << p.status().message();
  Status given = p->error("count", "must be even");
  EXPECT_FALSE(given.is_ok());
  EXPECT_EQ(given.message(), "f.yaml:5: stage 'lbl': parameter 'count': must be even");
  // A key that was not written in the file: the stage's own line.
  EXPECT_EQ(p->error("ratio", "too big").message(),
            "f.yaml:2: stage 'lbl': parameter 'ratio': too big");
}

TEST(StageParams, ErrorFromProgrammaticValues) {
  auto p = StageParams::from_values({{"count", int64_t{3}}}, all_types(), "lbl");
  ASSERT_TRUE(p.is_ok());
  EXPECT_EQ(p->error("count", "bad").message(), "<program>:0: stage 'lbl': parameter 'count': bad");
}

TEST(ParamTypeName, NamesEveryType) {
  EXPECT_EQ(param_type_name(ParamType::kInt), "integer");
  EXPECT_EQ(param_type_name(ParamType::kFloat), "number");
  EXPECT_EQ(param_type_name(ParamType::kBool), "boolean");
  EXPECT_EQ(param_type_name(ParamType::kString), "string");
  EXPECT_EQ(param_type_name(ParamType::kStringList), "list of strings");
  EXPECT_EQ(param_type_name(ParamType::kScalar), "scalar");
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

TEST(StageParamsFromValues, RejectsAValueOfTheWrongType) {
  std::vector<ParamSpec> specs = {{"n", ParamType::kInt, "1", "a count"},
                                  {"ratio", ParamType::kFloat, "0.5", "a ratio"}};
  auto wrong = StageParams::from_values({{"n", std::string("three")}}, specs, "s");
  ASSERT_FALSE(wrong.is_ok());
  EXPECT_EQ(wrong.status().message(), "stage 's': parameter 'n' must be an integer");
  // An integer is a fine number.
  auto widened = StageParams::from_values({{"ratio", int64_t{2}}}, specs, "s");
  ASSERT_TRUE(widened.is_ok()) << widened.status().message();
  EXPECT_EQ(widened->get_float("ratio"), 2.0);
}

}  // namespace
}  // namespace winnow
