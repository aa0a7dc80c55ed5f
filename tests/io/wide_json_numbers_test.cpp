// Wide JSON numbers: valid JSON that simdjson refuses is quoted in a copy, never an error;
// malformed numbers stay malformed.
#include "io/wide_json_numbers.h"

#include <gtest/gtest.h>

#include <string>

#include "core/doc_batch.h"

namespace winnow {
namespace {

std::string quoted(std::string_view json) {
  std::string out;
  return quote_wide_numbers(json, out) ? out : "(none)";
}

TEST(WideJsonNumbers, NumbersPastWhatSimdjsonHoldsAreQuoted) {
  EXPECT_EQ(quoted(R"({"big": 18446744073709551616})"), R"({"big": "18446744073709551616"})");
  EXPECT_EQ(quoted(R"([-9223372036854775809,1e400,-1E+999,123456789012345678901234567890.5e300])"),
            R"(["-9223372036854775809","1e400","-1E+999","123456789012345678901234567890.5e300"])");
  EXPECT_EQ(quoted(R"({"a":{"b":[1,99999999999999999999]}})"),
            R"({"a":{"b":[1,"99999999999999999999"]}})");
}

TEST(WideJsonNumbers, NumbersSimdjsonHoldsAndStringsAreLeftAlone) {
  EXPECT_EQ(quoted(R"({"a": 18446744073709551615, "b": -9223372036854775808, "c": 1e-400})"),
            "(none)");
  EXPECT_EQ(quoted(R"({"s": "18446744073709551616 \" 1e400"})"), "(none)");
}

TEST(WideJsonNumbers, MalformedNumbersStayMalformed) {
  for (const char* json : {"[018446744073709551616]", "[1e]", "[-]", "[1.e400]", "[+1e400]"}) {
    EXPECT_EQ(quoted(json), "(none)") << json;
  }
}

simdjson::error_code parse_padded(simdjson::dom::parser& parser, const std::string& record,
                                  simdjson::dom::element& root) {
  static std::string buffer;
  buffer = record + std::string(kRecordPadding, ' ');
  return parse_record(parser, std::string_view(buffer.data(), record.size()), root);
}

TEST(WideJsonNumbers, RecordsWithThemParseAndTheNumberReadsAsItsText) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_EQ(parse_padded(parser, R"({"text": "a", "big": 18446744073709551616, "n": 3})", root),
            simdjson::SUCCESS);
  EXPECT_EQ(std::string_view(root["big"].get_string().value()), "18446744073709551616");
  EXPECT_EQ(int64_t(root["n"].get_int64().value()), 3);
  // Still errors: a malformed number, and malformed JSON around a wide number.
  EXPECT_NE(parse_padded(parser, R"({"text": "a", "n": 01})", root), simdjson::SUCCESS);
  EXPECT_NE(parse_padded(parser, R"({"text": "a", "big": 18446744073709551616,})", root),
            simdjson::SUCCESS);
}

}  // namespace
}  // namespace winnow
