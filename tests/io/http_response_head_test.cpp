#include "io/http_response_head.h"

#include <gtest/gtest.h>

#include <string>

namespace winnow {
namespace {

// Heads as they stand in a WARC that wget --warc-file wrote from python3's http.server.
const std::string kPythonServer200 =
    "HTTP/1.0 200 OK\r\n"
    "Server: SimpleHTTP/0.6 Python/3.11.7\r\n"
    "Date: Tue, 01 Dec 2026 14:35:42 GMT\r\n"
    "Content-type: text/html\r\n"
    "Content-Length: 39\r\n"
    "Last-Modified: Tue, 01 Dec 2026 14:35:40 GMT\r\n"
    "\r\n";
const std::string kPythonServer404 =
    "HTTP/1.0 404 File not found\r\n"
    "Server: SimpleHTTP/0.6 Python/3.11.7\r\n"
    "Date: Tue, 01 Dec 2026 14:35:42 GMT\r\n"
    "Connection: close\r\n"
    "Content-Type: text/html;charset=utf-8\r\n"
    "Content-Length: 335\r\n"
    "\r\n";
// A head as a CDN sends it: chunked, gzip, header names in lower case (HTTP/2 style).
const std::string kCdnHead =
    "HTTP/1.1 200 OK\r\n"
    "content-type: text/html; charset=UTF-8\r\n"
    "transfer-encoding: chunked\r\n"
    "content-encoding: GZIP\r\n"
    "vary: Accept-Encoding\r\n"
    "\r\n";

struct Expected {
  int status;
  std::string content_type;
  bool chunked;
  std::string content_encoding;
  size_t body_offset;
};

void expect_head(const std::string& block, bool complete, const Expected& expected) {
  SCOPED_TRACE(block.substr(0, 40));
  std::optional<HttpResponseHead> head = HttpResponseHead::parse(block, complete);
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, expected.status);
  EXPECT_EQ(head->content_type, expected.content_type);
  EXPECT_EQ(head->chunked, expected.chunked);
  EXPECT_EQ(head->content_encoding, expected.content_encoding);
  EXPECT_EQ(head->body_offset, expected.body_offset);
}

TEST(HttpResponseHead, ParsesRealHeads) {
  // "Content-type": names match in any case.
  expect_head(kPythonServer200 + "<html><body><p>caf\xc3\xa9</p></body></html>\n", true,
              {200, "text/html", false, "", kPythonServer200.size()});
  expect_head(kPythonServer404 + "<!DOCTYPE HTML>", true,
              {404, "text/html;charset=utf-8", false, "", kPythonServer404.size()});
  // The Content-Type as sent, the Content-Encoding lower-cased.
  expect_head(kCdnHead + "5\r\nhello\r\n0\r\n\r\n", true,
              {200, "text/html; charset=UTF-8", true, "gzip", kCdnHead.size()});
}

TEST(HttpResponseHead, AcceptsBareLineFeeds) {
  std::string head_text = "HTTP/1.1 301 Moved\nLocation: /x\nContent-Type: text/plain\n\n";
  expect_head(head_text + "moved", true, {301, "text/plain", false, "", head_text.size()});
  // Whichever blank line comes first ends the head: here "\n\n" inside the body is later.
  expect_head(kPythonServer200 + "a\n\nb", true,
              {200, "text/html", false, "", kPythonServer200.size()});
}

TEST(HttpResponseHead, HeadWithoutABody) {
  std::string text = "HTTP/1.1 204 No Content\r\nServer: x";
  // The whole block: a head with nothing after it.
  expect_head(text, true, {204, "", false, "", text.size()});
  // Only the first bytes of a longer block: the blank line may still come.
  EXPECT_FALSE(HttpResponseHead::parse(text, false));
}

// Lines without a colon are passed over, Transfer-Encoding may list codings, and of repeated
// headers the last counts.
TEST(HttpResponseHead, ReadsHeaderLinesLeniently) {
  std::string text =
      "HTTP/1.1 200 OK\r\nthis line has no colon\r\n\tnor this one\r\nContent-Type: text/plain\r\n"
      "Transfer-Encoding: gzip, Chunked\r\nContent-Type: text/html\r\n\r\n";
  expect_head(text, true, {200, "text/html", true, "", text.size()});
}

TEST(HttpResponseHead, RejectsWhatIsNoResponseHead) {
  for (std::string bad : {
           std::string("GET / HTTP/1.1\r\nHost: a\r\n\r\n"),          // a request
           std::string("<html><body>no head</body></html>\r\n\r\n"),  // a bare body
           std::string("HTTP/1.1\r\n\r\n"),                           // no status
           std::string("HTTP/1.1 2x0 OK\r\n\r\n"),                    // not digits
           std::string("HTTP/1.1 20\r\n\r\n"),                        // two digits
           std::string("HTTP/1.1  200 OK\r\n\r\n"),  // the code must follow one space
           std::string("http/1.1 200 OK\r\n\r\n"),   // the protocol is case-sensitive
           std::string(""),
       }) {
    EXPECT_FALSE(HttpResponseHead::parse(bad, true)) << ::testing::PrintToString(bad);
  }
}

TEST(HttpResponseHead, StatusCodeIsTheThreeDigitsAfterTheSpace) {
  std::string no_reason = "HTTP/1.1 200\r\n\r\n";
  expect_head(no_reason, true, {200, "", false, "", no_reason.size()});
  std::string four_digits = "HTTP/1.1 5031 Odd\r\n\r\n";
  expect_head(four_digits, true, {503, "", false, "", four_digits.size()});
}

// The head of a block longer than what WarcReader reads first, cut at that limit before its
// blank line: no head yet. The same bytes as a whole (short) block are a head with no body.
TEST(HttpResponseHead, OversizeHeadIsNotAHead) {
  std::string big =
      "HTTP/1.1 200 OK\r\nX-Padding: " + std::string(HttpResponseHead::kMaxBytes, 'x') +
      "\r\n\r\nbody";
  std::string first = big.substr(0, HttpResponseHead::kMaxBytes);
  EXPECT_FALSE(HttpResponseHead::parse(first, false));
  expect_head(first, true, {200, "", false, "", first.size()});
}

}  // namespace
}  // namespace winnow
