#include "core/json_text.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace winnow {
namespace {

std::string json_quoted(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

std::string number(double v) {
  std::string out;
  append_json_number(out, v);
  return out;
}

// Parses a JSON string literal back to its value.
std::string unquote(const std::string& json) {
  simdjson::dom::parser parser;
  std::string_view value;
  auto error = parser.parse(json).get(value);
  EXPECT_FALSE(error) << simdjson::error_message(error) << " in " << json;
  return std::string(value);
}

TEST(JsonText, EscapesQuotesAndBackslashes) {
  EXPECT_EQ(json_quoted(""), "\"\"");
  EXPECT_EQ(json_quoted("plain"), "\"plain\"");
  EXPECT_EQ(json_quoted("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(json_quoted("a\\b"), "\"a\\\\b\"");
  EXPECT_EQ(json_quoted("\"\\\""), "\"\\\"\\\\\\\"\"");
  EXPECT_EQ(json_quoted("a/b"), "\"a/b\"");  // '/' may stay as is
}

TEST(JsonText, EscapesControlCharacters) {
  EXPECT_EQ(json_quoted("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"");
  EXPECT_EQ(json_quoted(std::string("\0", 1)), "\"\\u0000\"");
  EXPECT_EQ(json_quoted("\x01"), "\"\\u0001\"");
  EXPECT_EQ(json_quoted("\x1b[0m"), "\"\\u001b[0m\"");
  EXPECT_EQ(json_quoted("\x1f"), "\"\\u001f\"");
  EXPECT_EQ(json_quoted(" "), "\" \"");
  EXPECT_EQ(json_quoted("\x7f"), "\"\x7f\"");  // DEL is not a JSON control character
}

TEST(JsonText, KeepsNonAsciiAsUtf8) {
  EXPECT_EQ(json_quoted("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(json_quoted("\xe6\x97\xa5\xe6\x9c\xac"), "\"\xe6\x97\xa5\xe6\x9c\xac\"");
  EXPECT_EQ(json_quoted("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
  EXPECT_EQ(json_quoted("\xe2\x80\xa8"), "\"\xe2\x80\xa8\"");  // U+2028 is valid raw in JSON
}

TEST(JsonText, EveryAsciiCharacterRoundTrips) {
  std::string all;
  for (int c = 0; c < 128; ++c) all.push_back(static_cast<char>(c));
  all += "\xc3\xa9\xf0\x9f\x98\x80";
  std::string json = json_quoted(all);
  EXPECT_EQ(unquote(json), all);
  for (char c : json) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << "raw control char";
}

TEST(JsonText, AppendsToExistingText) {
  std::string out = "{\"k\":";
  append_json_string(out, "v");
  append_json_number(out, 2.0);
  EXPECT_EQ(out, "{\"k\":\"v\"2");
}

TEST(JsonText, Numbers) {
  EXPECT_EQ(number(0.0), "0");
  EXPECT_EQ(number(1.0), "1");
  EXPECT_EQ(number(-2.5), "-2.5");
  EXPECT_EQ(number(0.1), "0.1");
  EXPECT_EQ(number(1e300), "1e+300");
  EXPECT_EQ(number(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(number(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(number(-std::numeric_limits<double>::infinity()), "null");
}

TEST(JsonText, NumbersRoundTripExactly) {
  std::mt19937_64 rng(8);
  simdjson::dom::parser parser;
  for (int i = 0; i < 2000; ++i) {
    uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    if (!std::isfinite(v)) continue;
    std::string json = number(v);
    double back = 0;
    ASSERT_FALSE(parser.parse(json).get(back)) << json;
    ASSERT_EQ(back, v) << json;
  }
  for (double v : {5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -0.0, 123456789.125}) {
    double back = 0;
    ASSERT_FALSE(parser.parse(number(v)).get(back)) << number(v);
    EXPECT_EQ(back, v);
  }
}

// The shortest form of some large doubles is a bare integer of more than 64 bits, which
// simdjson (winnow's own reader) refuses; such values must be written with an exponent.
TEST(JsonText, LargeDoublesStayReadable) {
  simdjson::dom::parser parser;
  for (double v : {1.4522067572409514e20, 18446744073709551616.0, -9223372036854777856.0,
                   1.2345678901234568e19, 1e20, 1e22, 9.3e18, -1.7976931348623157e308}) {
    std::string json = number(v);
    double back = 0;
    ASSERT_FALSE(parser.parse(json).get(back)) << json;
    EXPECT_EQ(back, v) << json;
  }
  // Integral values that fit 64 bits may still be written plainly.
  EXPECT_EQ(number(123456789012345680.0), "123456789012345680");
}

std::string float_array(std::vector<float> values) {
  std::string out;
  append_json_float_array(out, values);
  return out;
}

TEST(JsonText, FloatArrays) {
  EXPECT_EQ(float_array({}), "[]");
  EXPECT_EQ(float_array({0.1f}), "[0.1]");
  EXPECT_EQ(float_array({1.0f, -0.5f, std::numeric_limits<float>::quiet_NaN(),
                         std::numeric_limits<float>::infinity()}),
            "[1,-0.5,null,null]");
}

// Every finite float reads back (as a double, rounded to float) as itself, and large ones keep
// an exponent or a point so strict parsers take them.
TEST(JsonText, FloatArraysRoundTripExactly) {
  std::mt19937 rng(9);
  std::vector<float> values;
  while (values.size() < 2000) {
    uint32_t bits = rng();
    float v;
    std::memcpy(&v, &bits, sizeof(v));
    if (std::isfinite(v)) values.push_back(v);
  }
  values.push_back(1.8446744e19f);
  values.push_back(std::numeric_limits<float>::max());
  values.push_back(std::numeric_limits<float>::denorm_min());
  std::string json = float_array(values);
  simdjson::dom::parser parser;
  simdjson::dom::array array;
  ASSERT_FALSE(parser.parse(json).get(array));
  size_t i = 0;
  for (auto element : array) {
    double back = 0;
    ASSERT_FALSE(element.get(back)) << i;
    ASSERT_EQ(static_cast<float>(back), values[i]) << i;
    ++i;
  }
  EXPECT_EQ(i, values.size());
}

TEST(JsonWriter, CompactNesting) {
  JsonWriter w(false);
  w.begin_object();
  w.key("a").value(1);
  w.key("b")
      .begin_array()
      .value(true)
      .value(false)
      .value("x")
      .begin_object()
      .end_object()
      .end_array();
  w.key("c").begin_object().key("d").value(-2.5).key("e").begin_array().end_array().end_object();
  w.key("f").value(std::numeric_limits<double>::quiet_NaN());
  w.end_object();
  EXPECT_EQ(w.str(), R"({"a":1,"b":[true,false,"x",{}],"c":{"d":-2.5,"e":[]},"f":null})");
}

TEST(JsonWriter, PrettyNesting) {
  JsonWriter w(true);
  w.begin_object();
  w.key("a").value(1);
  w.key("b").begin_array().value(true).begin_object().key("k").value("v").end_object().end_array();
  w.key("c").begin_object().end_object();
  w.key("d").begin_array().end_array();
  w.end_object();
  EXPECT_EQ(w.str(),
            "{\n"
            "  \"a\": 1,\n"
            "  \"b\": [\n"
            "    true,\n"
            "    {\n"
            "      \"k\": \"v\"\n"
            "    }\n"
            "  ],\n"
            "  \"c\": {},\n"
            "  \"d\": []\n"
            "}");
}

TEST(JsonWriter, EmptyTopLevelContainers) {
  EXPECT_EQ(JsonWriter(true).begin_object().end_object().str(), "{}");
  EXPECT_EQ(JsonWriter(false).begin_array().end_array().str(), "[]");
  EXPECT_EQ(JsonWriter(true).begin_array().end_array().str(), "[]");
}

TEST(JsonWriter, ValueTypes) {
  JsonWriter w(false);
  w.begin_array();
  w.value(std::numeric_limits<uint64_t>::max());
  w.value(std::numeric_limits<int64_t>::min());
  w.value(-1);
  w.value(0.5);
  w.value(std::string("s\"q"));
  w.value("c-string");
  w.value(std::string_view("view"));
  w.value(false);
  w.raw("{\"pre\":[1,2]}");
  w.value(std::numeric_limits<double>::infinity());
  w.end_array();
  EXPECT_EQ(w.str(),
            "[18446744073709551615,-9223372036854775808,-1,0.5,\"s\\\"q\",\"c-string\",\"view\","
            "false,{\"pre\":[1,2]},null]");
}

TEST(JsonWriter, KeysAreEscaped) {
  JsonWriter w(false);
  w.begin_object().key("stage/\"reason\"\n").value(1).end_object();
  EXPECT_EQ(w.str(), "{\"stage/\\\"reason\\\"\\n\":1}");
}

TEST(JsonWriter, OutputParses) {
  for (bool pretty : {false, true}) {
    JsonWriter w(pretty);
    w.begin_object();
    for (int i = 0; i < 5; ++i) {
      w.key("k" + std::to_string(i)).begin_array();
      for (int j = 0; j < i; ++j) w.begin_object().key("j").value(j).end_object();
      w.end_array();
    }
    w.end_object();
    std::string json = w.take();
    simdjson::dom::parser parser;
    simdjson::dom::object object;
    ASSERT_FALSE(parser.parse(json).get(object)) << json;
    EXPECT_EQ(object.size(), 5u);
    simdjson::dom::array k4;
    ASSERT_FALSE(object["k4"].get(k4));
    EXPECT_EQ(k4.size(), 4u);
  }
}

}  // namespace
}  // namespace winnow
