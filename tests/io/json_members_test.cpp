#include "io/json_members.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

namespace winnow {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs split(std::string_view object) {
  std::vector<JsonMember> members;
  split_members(object, members);
  Pairs out;
  for (const JsonMember& m : members) {
    // Both views point into the input.
    EXPECT_GE(m.member.data(), object.data());
    EXPECT_LE(m.member.data() + m.member.size(), object.data() + object.size());
    out.emplace_back(std::string(m.key), std::string(m.member));
  }
  return out;
}

TEST(JsonMembers, EmptyObjects) {
  EXPECT_TRUE(split("{}").empty());
  EXPECT_TRUE(split("{ }").empty());
  EXPECT_TRUE(split(" \t{\n}\r\n").empty());
}

TEST(JsonMembers, FlatMembers) {
  EXPECT_EQ(split(R"({"a":1,"b":"x","c":true,"d":false,"e":null,"f":-1.5e+3})"),
            (Pairs{{"a", R"("a":1)"},
                   {"b", R"("b":"x")"},
                   {"c", R"("c":true)"},
                   {"d", R"("d":false)"},
                   {"e", R"("e":null)"},
                   {"f", R"("f":-1.5e+3)"}}));
}

TEST(JsonMembers, WhitespaceAroundEverything) {
  EXPECT_EQ(split("  { \"a\" : 1 ,\n\t\"b\"\t:\t[ 1 , 2 ]  ,\r\n \"c\" :\"s\" \n}  "),
            (Pairs{{"a", "\"a\" : 1"}, {"b", "\"b\"\t:\t[ 1 , 2 ]"}, {"c", "\"c\" :\"s\""}}));
}

TEST(JsonMembers, NestedContainers) {
  EXPECT_EQ(split(R"({"a":{"b":[1,{"c":{}}],"d":[[],[{}]]},"e":[{"f":[{"g":[]}]}],"h":0})"),
            (Pairs{{"a", R"("a":{"b":[1,{"c":{}}],"d":[[],[{}]]})"},
                   {"e", R"("e":[{"f":[{"g":[]}]}])"},
                   {"h", R"("h":0)"}}));
}

TEST(JsonMembers, StringsWithBracesCommasAndQuotes) {
  EXPECT_EQ(split(R"({"s":"a},{[\"]","t":{"u":"}}}]]","v":"\\"},"w":"\\\"","x":2})"),
            (Pairs{{"s", R"("s":"a},{[\"]")"},
                   {"t", R"("t":{"u":"}}}]]","v":"\\"})"},
                   {"w", R"("w":"\\\"")"},
                   {"x", R"("x":2)"}}));
}

TEST(JsonMembers, KeysAreRawBetweenTheQuotes) {
  EXPECT_EQ(split(R"({"k\"ey":1,"caf\u00e9":2,"":3,"a,b}":4})"),
            (Pairs{{R"(k\"ey)", R"("k\"ey":1)"},
                   {R"(caf\u00e9)", R"("caf\u00e9":2)"},
                   {"", R"("":3)"},
                   {"a,b}", R"("a,b}":4)"}}));
}

TEST(JsonMembers, Utf8IsOpaque) {
  EXPECT_EQ(split("{\"\xe6\x97\xa5\":\"\xf0\x9f\x98\x80}\",\"b\":[\"\xc3\xa9\"]}"),
            (Pairs{{"\xe6\x97\xa5", "\"\xe6\x97\xa5\":\"\xf0\x9f\x98\x80}\""},
                   {"b", "\"b\":[\"\xc3\xa9\"]"}}));
}

TEST(JsonMembers, ReusedVectorIsCleared) {
  std::vector<JsonMember> members;
  split_members(R"({"a":1,"b":2,"c":3})", members);
  ASSERT_EQ(members.size(), 3u);
  split_members(R"({"z":[]})", members);
  ASSERT_EQ(members.size(), 1u);
  EXPECT_EQ(members[0].key, "z");
  split_members("{}", members);
  EXPECT_TRUE(members.empty());
}

// Random objects, built with random whitespace while recording each member's exact bytes;
// the splitter must find the same members, and simdjson must agree the object is valid.
class RandomJson {
 public:
  explicit RandomJson(uint64_t seed) : rng_(seed) {}

  std::string object(int depth, Pairs* members) {
    std::string out = "{" + ws();
    int n = static_cast<int>(rng_() % (depth == 0 ? 6 : 4));
    for (int i = 0; i < n; ++i) {
      if (i) out += ws() + "," + ws();
      std::string key_body = string_body();
      std::string member = "\"" + key_body + "\"" + ws() + ":" + ws() + value(depth + 1);
      if (members) members->emplace_back(key_body, member);
      out += member;
    }
    return out + ws() + "}";
  }

 private:
  std::string ws() {
    static const char* kSpaces[] = {"", "", "", " ", "  ", "\t", "\n", "\r\n", " \t "};
    return kSpaces[rng_() % std::size(kSpaces)];
  }
  std::string string_body() {
    static const char* kPieces[] = {"a",    "text", "{",   "}",       "[",        "]", ",",   ":",
                                    "\\\"", "\\\\", "\\n", "\\u00e9", "\xc3\xa9", " ", "\\/", "id"};
    std::string s;
    int n = static_cast<int>(rng_() % 6);
    for (int i = 0; i < n; ++i) s += kPieces[rng_() % std::size(kPieces)];
    return s;
  }
  std::string value(int depth) {
    int kind = static_cast<int>(rng_() % (depth > 4 ? 5 : 7));
    switch (kind) {
      case 0:
        return "\"" + string_body() + "\"";
      case 1:
        return std::to_string(static_cast<int64_t>(rng_() % 2000) - 1000);
      case 2:
        return "-12.5e-3";
      case 3:
        return rng_() % 2 ? "true" : "false";
      case 4:
        return "null";
      case 5:
        return object(depth, nullptr);
      default: {
        std::string out = "[" + ws();
        int n = static_cast<int>(rng_() % 4);
        for (int i = 0; i < n; ++i) {
          if (i) out += ws() + "," + ws();
          out += value(depth + 1);
        }
        return out + ws() + "]";
      }
    }
  }
  std::mt19937_64 rng_;
};

TEST(JsonMembers, QuotesAndEscapesAtEveryOffsetOfLongStrings) {
  // Strings are stepped over 16 bytes at a time: an escaped quote or backslash, and the closing
  // quote, at every offset around those blocks (and past them) must still be found.
  for (size_t before = 0; before <= 40; ++before) {
    for (size_t after = 0; after <= 40; ++after) {
      for (const char* escape : {"\\\"", "\\\\"}) {
        const std::string text =
            "\"" + std::string(before, 'a') + escape + std::string(after, 'b') + "\"";
        const std::string object = "{\"t\":" + text + ",\"u\":1}";
        ASSERT_EQ(split(object), (Pairs{{"t", "\"t\":" + text}, {"u", "\"u\":1"}})) << object;
      }
    }
  }
}

TEST(JsonMembers, RandomObjectsSplitIntoTheMembersTheyWereBuiltFrom) {
  RandomJson gen(2024);
  simdjson::dom::parser parser;
  for (int trial = 0; trial < 2000; ++trial) {
    Pairs expected;
    std::string object = gen.object(0, &expected);
    simdjson::dom::element root;
    ASSERT_FALSE(parser.parse(object).get(root)) << "generator made invalid JSON: " << object;
    ASSERT_EQ(split(object), expected) << object;
  }
}

}  // namespace
}  // namespace winnow
