#pragma once
// HttpResponseHead: the status line and the headers of an HTTP/1.x response as a WARC
// response record holds it, parsed from the first bytes of the record's block, so an unwanted
// status or Content-Type is known before the body is copied. Lenient where crawls are: a head
// may end in "\n\n" as well as "\r\n\r\n", lines without a colon are passed over, and header
// names match case-insensitively.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace winnow {

struct HttpResponseHead {
  // What WarcReader reads of a block before deciding whether to keep it.
  static constexpr size_t kMaxBytes = 64 << 10;

  int status = 0;
  std::string content_type;      // as sent ("text/html; charset=utf-8")
  bool chunked = false;          // Transfer-Encoding names chunked
  std::string content_encoding;  // lower-cased ("gzip"), empty when none
  size_t body_offset = 0;        // where the body starts in the block

  // Parses the head at the start of `block`. `complete`: `block` is the whole block, so a head
  // with no blank line after it is a head with no body (otherwise more bytes may follow and it
  // is not a head yet). Nullopt when it is not an HTTP response head.
  static std::optional<HttpResponseHead> parse(std::string_view block, bool complete);
};

}  // namespace winnow
