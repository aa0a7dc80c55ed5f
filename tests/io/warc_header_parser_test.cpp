#include "io/warc_header_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace winnow {
namespace {

using ::testing::HasSubstr;
using Step = WarcHeaderParser::Step;

// The header lines of a response record that wget --warc-file wrote (WARC/1.0), as the reader
// hands them over: cut at "\n", each keeping its "\r".
const std::vector<std::string> kWgetResponse = {
    "WARC-Type: response\r",
    "WARC-Record-ID: <urn:uuid:eb211d7a-1a29-4724-8dc4-6704e0d8f8b8>\r",
    "WARC-Warcinfo-ID: <urn:uuid:e1d9f6b5-ed76-4ffe-adef-2aaee318a17b>\r",
    "WARC-Concurrent-To: <urn:uuid:96ea4427-acee-4216-98b2-b361b00e3a21>\r",
    "WARC-Target-URI: <http://127.0.0.1:41847/index.html>\r",
    "WARC-Date: 2026-12-01T14:35:42Z\r",
    "WARC-IP-Address: 127.0.0.1\r",
    "WARC-Block-Digest: sha1:7366KLYN7HJZMFVAILVUEHGW5VWYYLUL\r",
    "WARC-Payload-Digest: sha1:QZJMAAKKJ3OZDNMMK7FSLEKXMJMCAYZ7\r",
    "Content-Type: application/http;msgtype=response\r",
    "Content-Length: 224\r",
    "\r",
};

// Feeds `lines`; returns the step after the last one fed (stopping at kDone or kBad).
Step feed(WarcHeaderParser& parser, const std::vector<std::string>& lines, size_t* fed = nullptr) {
  Step step = Step::kMore;
  size_t n = 0;
  for (const std::string& line : lines) {
    step = parser.add_line(line, false);
    ++n;
    if (step != Step::kMore) break;
  }
  if (fed) *fed = n;
  return step;
}

TEST(WarcHeaderParser, ParsesAWgetResponseRecord) {
  WarcHeaderParser parser;
  size_t fed = 0;
  ASSERT_EQ(feed(parser, kWgetResponse, &fed), Step::kDone);
  EXPECT_EQ(fed, kWgetResponse.size());
  const WarcHeaders& h = parser.headers();
  EXPECT_EQ(h.type, "response");
  EXPECT_EQ(h.target_uri, "http://127.0.0.1:41847/index.html");               // <> removed
  EXPECT_EQ(h.record_id, "<urn:uuid:eb211d7a-1a29-4724-8dc4-6704e0d8f8b8>");  // kept as is
  EXPECT_EQ(h.date, "2026-12-01T14:35:42Z");
  EXPECT_EQ(h.content_type, "application/http;msgtype=response");
  EXPECT_TRUE(h.has_length);
  EXPECT_EQ(h.content_length, 224u);
  EXPECT_EQ(h.block_digest, "sha1:7366KLYN7HJZMFVAILVUEHGW5VWYYLUL");
  EXPECT_EQ(h.payload_digest, "sha1:QZJMAAKKJ3OZDNMMK7FSLEKXMJMCAYZ7");
  EXPECT_TRUE(parser.error().empty());
}

TEST(WarcHeaderParser, ParsesWarc11WithBareLineFeedsAndOddCase) {
  WarcHeaderParser parser;
  ASSERT_EQ(feed(parser, {"warc-type: Conversion", "WARC-TARGET-URI: http://c.example/",
                          "content-type:text/plain", "CONTENT-LENGTH:   17   ", ""}),
            Step::kDone);
  EXPECT_EQ(parser.headers().type, "conversion");  // lower-cased
  EXPECT_EQ(parser.headers().target_uri, "http://c.example/");
  EXPECT_EQ(parser.headers().content_type, "text/plain");
  EXPECT_EQ(parser.headers().content_length, 17u);
}

TEST(WarcHeaderParser, SkipsFoldedContinuationLines) {
  WarcHeaderParser parser;
  ASSERT_EQ(
      feed(parser, {"WARC-Type: resource\r", "X-Long: first part\r", "  and a folded second part\r",
                    "\tand a third\r", "Content-Length: 3\r", "\r"}),
      Step::kDone);
  EXPECT_EQ(parser.headers().type, "resource");
  EXPECT_EQ(parser.headers().content_length, 3u);
}

TEST(WarcHeaderParser, HeaderLineWithoutAColonIsBad) {
  WarcHeaderParser parser;
  EXPECT_EQ(feed(parser, {"WARC-Type: response\r", "this is not a header\r", "\r"}), Step::kBad);
  EXPECT_EQ(parser.error(), "malformed WARC header line 'this is not a header'");
  // The error quotes at most 80 bytes of the line.
  WarcHeaderParser long_line;
  EXPECT_EQ(long_line.add_line(std::string(500, 'z'), false), Step::kBad);
  EXPECT_EQ(long_line.error(), "malformed WARC header line '" + std::string(80, 'z') + "'");
}

TEST(WarcHeaderParser, ContentLengthMustBeANumber) {
  for (std::string value : {"lots", "-1", "12abc", "0x10", "", "99999999999999999999999"}) {
    WarcHeaderParser parser;
    EXPECT_EQ(parser.add_line("Content-Length: " + value + "\r", false), Step::kBad) << value;
    EXPECT_THAT(parser.error(), HasSubstr("Content-Length '" + value + "' is not a number"));
  }
  WarcHeaderParser zero;
  EXPECT_EQ(feed(zero, {"Content-Length: 0", ""}), Step::kDone);
  EXPECT_EQ(zero.headers().content_length, 0u);
}

TEST(WarcHeaderParser, RecordWithoutContentLengthIsBad) {
  WarcHeaderParser parser;
  EXPECT_EQ(feed(parser, {"WARC-Type: response\r", "WARC-Date: 2024-01-02T03:04:05Z\r", "\r"}),
            Step::kBad);
  EXPECT_EQ(parser.error(), "the record has no Content-Length");
}

TEST(WarcHeaderParser, OversizeHeadersAreBad) {
  // One line the reader cut at kMaxLine.
  WarcHeaderParser cut;
  EXPECT_EQ(cut.add_line("X-Big: " + std::string(WarcHeaderParser::kMaxLine - 7, 'x'), true),
            Step::kBad);
  EXPECT_EQ(cut.error(), "WARC headers are too long");

  // Many lines, each within its limit, adding up to more than kMaxBlock.
  WarcHeaderParser many;
  std::string line = "X-Filler: " + std::string(1000, 'f') + "\r";
  size_t lines = 0;
  Step step = Step::kMore;
  while (step == Step::kMore) {
    step = many.add_line(line, false);
    ++lines;
  }
  EXPECT_EQ(step, Step::kBad);
  EXPECT_EQ(many.error(), "WARC headers are too long");
  EXPECT_EQ(lines, WarcHeaderParser::kMaxBlock / (line.size() + 1) + 1);
}

TEST(WarcHeaderParser, KeepsTheUriUnlessWrappedInAngleBrackets) {
  for (auto [value, expected] :
       std::vector<std::pair<std::string, std::string>>{{"<http://a/>", "http://a/"},
                                                        {"http://a/", "http://a/"},
                                                        {"<http://a/", "<http://a/"},
                                                        {"<>", ""},
                                                        {"<", "<"}}) {
    WarcHeaderParser parser;
    ASSERT_EQ(feed(parser, {"WARC-Target-URI: " + value, "Content-Length: 1", ""}), Step::kDone);
    EXPECT_EQ(parser.headers().target_uri, expected) << value;
  }
}

TEST(WarcHeaderParser, RecognisesVersionLines) {
  for (std::string_view line : {"WARC/1.0\r", "WARC/1.1"}) {
    EXPECT_TRUE(WarcHeaderParser::is_version_line(line)) << line;
  }
  for (std::string_view line : {"WARC/0.17", "warc/1.0", " WARC/1.0", ""}) {
    EXPECT_FALSE(WarcHeaderParser::is_version_line(line)) << line;
  }
}

}  // namespace
}  // namespace winnow
