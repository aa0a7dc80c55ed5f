// The chat completions JSON: a request carries the images as base64 JPEG data URLs before the
// prompt, with the model, max_tokens, temperature and seed; a reply's text is its first
// choice's content, and anything else is an error that quotes the body.
#include "io/chat_messages.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

namespace winnow {
namespace {

using ::testing::HasSubstr;

TEST(ChatMessages, Base64FollowsRfc4648) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
      {std::string("\xff\xfe\x00", 3), "//4A"}};
  for (const auto& [in, expected] : cases) {
    std::string out;
    append_base64(out, in);
    EXPECT_EQ(out, expected) << in;
  }
}

TEST(ChatMessages, ARequestHasTheImagesThenThePrompt) {
  ChatRequestOptions options;
  options.model = "m\"odel";
  options.prompt = "Describe.";
  options.max_tokens = 77;
  options.seed = 42;
  std::string body = chat_request_json(options, {"abc", "de"});
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.parse(body);
  EXPECT_EQ(root["model"].get_string().value(), "m\"odel");
  EXPECT_EQ(root["max_tokens"].get_int64().value(), 77);
  EXPECT_EQ(root["temperature"].get_double().value(), 0);
  EXPECT_EQ(root["seed"].get_int64().value(), 42);
  simdjson::dom::array content = root["messages"].at(0)["content"].get_array();
  ASSERT_EQ(content.size(), 3u);
  EXPECT_EQ(content.at(0)["type"].get_string().value(), "image_url");
  EXPECT_EQ(content.at(0)["image_url"]["url"].get_string().value(), "data:image/jpeg;base64,YWJj");
  EXPECT_EQ(content.at(1)["image_url"]["url"].get_string().value(), "data:image/jpeg;base64,ZGU=");
  EXPECT_EQ(content.at(2)["text"].get_string().value(), "Describe.");
}

TEST(ChatMessages, AReplysTextIsItsFirstChoicesContent) {
  auto text = chat_reply_text(
      R"({"choices":[{"index":0,"message":{"role":"assistant","content":"A cat\nsits."}}]})");
  ASSERT_TRUE(text.is_ok());
  EXPECT_EQ(*text, "A cat\nsits.");
}

TEST(ChatMessages, AnythingElseIsAnErrorQuotingTheBody) {
  EXPECT_THAT(chat_reply_text("{\"choices\": [{\"mess").status().message(),
              HasSubstr("malformed reply"));
  EXPECT_THAT(chat_reply_text(R"({"error":{"message":"overloaded"}})").status().message(),
              HasSubstr("overloaded"));
  EXPECT_THAT(chat_reply_text(R"({"choices":[{"message":{"content":null}}]})").status().message(),
              HasSubstr("not a string"));
  EXPECT_FALSE(chat_reply_text("[]").is_ok());
}

}  // namespace
}  // namespace winnow
