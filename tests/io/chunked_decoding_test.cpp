#include "io/chunked_decoding.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace winnow {
namespace {

struct Case {
  std::string chunked;   // the body as sent
  std::string expected;  // what decoding keeps
};

// Decodes each body after an HTTP head, which must stay as it is.
void expect_decoded(const std::vector<Case>& cases) {
  const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (const Case& c : cases) {
    std::string body = head + c.chunked;
    decode_chunked(body, head.size());
    EXPECT_EQ(body.substr(0, head.size()), head);
    EXPECT_EQ(body.substr(head.size()), c.expected) << ::testing::PrintToString(c.chunked);
  }
}

// The example of RFC 9112 §7.1 (a chunk extension, a trailer field) and MDN's.
TEST(ChunkedDecoding, DecodesWellFormedBodies) {
  expect_decoded({
      {"4\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\n\r\n",
       "Wikipedia in\r\n\r\nchunks."},
      {"7\r\nMozilla\r\n11\r\nDeveloper Network\r\n0\r\n\r\n", "MozillaDeveloper Network"},
      {"5;name=value\r\nhello\r\n0\r\nExpires: never\r\n\r\n", "hello"},
      {"a\r\n0123456789\r\nA\r\nabcdefghij\r\n0\r\n\r\n", "0123456789abcdefghij"},  // any case
      {"0\r\n\r\n", ""},
      {"", ""},
  });
}

TEST(ChunkedDecoding, AcceptsBareLineFeedsAndPaddedSizes) {
  expect_decoded({
      {"3\nabc\n2\nde\n0\n\n", "abcde"},
      {"  3 \t\r\nabc\r\n 2 ; ext\r\nde\r\n0\r\n", "abcde"},
  });
}

TEST(ChunkedDecoding, KeepsWhatATruncatedBodyHolds) {
  expect_decoded({
      {"5\r\nhello\r\n10\r\nworld", "helloworld"},  // cut inside a chunk: its bytes so far
      {"5\r\nhello\r\n", "hello"},                  // cut before the last chunk
      {"5\r\nhello\r\n1", "hello"},                 // cut inside a size line: not read
      {"ffffffff\r\nshort", "short"},               // a chunk longer than the data
  });
}

TEST(ChunkedDecoding, StopsAtABadChunkSize) {
  expect_decoded({
      {"5\r\nhello\r\nzz\r\nworld\r\n0\r\n\r\n", "hello"},
      {"-5\r\nhello\r\n0\r\n\r\n", ""},
      {"\r\nhello\r\n0\r\n\r\n", ""},  // an empty size line
      {"; ext\r\nhello\r\n", ""},      // no digits before the extension
      // Not chunked at all (a server that said chunked and was not): nothing decodes.
      {"<html><body>plain</body></html>", ""},
      // Too large for 64 bits: decoding stops.
      {"3\r\nabc\r\nFFFFFFFFFFFFFFFFF\r\nxyz\r\n", "abc"},
  });
}

TEST(ChunkedDecoding, ReadsTheHexDigitsASizeLineStartsWith) {
  expect_decoded({
      {"5x\r\nhello\r\n0\r\n\r\n", "hello"},  // "5x" reads as 5, like an extension
      {"0x10\r\nsixteen bytes...\r\n", ""},   // "0x10" is 0: the last chunk
  });
}

}  // namespace
}  // namespace winnow
