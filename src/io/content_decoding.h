#pragma once
// decode_content: undoes the Content-Encoding of an HTTP body kept in a WARC response record
// (gzip, deflate), in memory and bounded. This is the payload's own compression, inside the
// record; a compressed WARC file's gzip members are ByteSource's business.
#include <cstddef>
#include <string>
#include <string_view>

namespace winnow {

// Decodes body[from, end) (what is before `from`, the HTTP head, stays) by `content_encoding`,
// lower-cased as HttpResponseHead keeps it. Empty and "identity" leave the body as it is; a
// value naming gzip inflates a gzip stream, one naming deflate a zlib stream (zlib's header is
// detected, so a gzip stream labelled deflate inflates too; raw deflate does not). A stream cut
// short keeps what inflated. False, with the body unchanged, for any other encoding, for data
// that does not inflate, and when the result would exceed `limit` bytes.
bool decode_content(std::string& body, size_t from, std::string_view content_encoding,
                    size_t limit);

}  // namespace winnow
