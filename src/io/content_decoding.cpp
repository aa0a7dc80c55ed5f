#include "io/content_decoding.h"

#include <zlib.h>

namespace winnow {

namespace {

bool inflate_body(std::string& body, size_t from, bool gzip, size_t limit) {
  z_stream z{};
  // gzip: 15 + 16; deflate: zlib-wrapped usually (15), raw rarely (-15): try auto (15 + 32).
  if (inflateInit2(&z, gzip ? 15 + 16 : 15 + 32) != Z_OK) return false;
  std::string out;
  z.next_in = reinterpret_cast<Bytef*>(body.data() + from);
  z.avail_in = static_cast<uInt>(body.size() - from);
  char chunk[64 << 10];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof(chunk);
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(chunk, sizeof(chunk) - z.avail_out);
    if (out.size() > limit) rc = Z_MEM_ERROR;
    if (rc == Z_BUF_ERROR && z.avail_in == 0) rc = Z_STREAM_END;  // cut short: keep what we have
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return false;
  body.resize(from);
  body += out;
  return true;
}

}  // namespace

bool decode_content(std::string& body, size_t from, std::string_view content_encoding,
                    size_t limit) {
  if (content_encoding.empty() || content_encoding == "identity") return true;
  bool gzip = content_encoding.find("gzip") != std::string_view::npos;
  bool deflate = content_encoding.find("deflate") != std::string_view::npos;
  return (gzip || deflate) && inflate_body(body, from, gzip, limit);
}

}  // namespace winnow
