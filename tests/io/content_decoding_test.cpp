#include "io/content_decoding.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include "test_support.h"

namespace winnow::testing {
namespace {

const std::string kHead = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n";

// A real page (python3-doc, which scripts/setup installs).
std::string page() {
  return read_file("/usr/share/doc/python3/html/tutorial/appetite.html");
}

// zlib's own wrapper (what HTTP calls deflate) or, with window_bits -15, raw deflate.
std::string deflated(std::string_view bytes, int window_bits) {
  z_stream s{};
  deflateInit2(&s, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&s, bytes.size()) + 64, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  s.avail_in = static_cast<uInt>(bytes.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

struct Decoded {
  bool ok;
  std::string body;  // after the head
};

Decoded decode(const std::string& payload, std::string_view encoding,
               size_t limit = 32 << 20) {
  std::string block = kHead + payload;
  bool ok = decode_content(block, kHead.size(), encoding, limit);
  EXPECT_EQ(block.substr(0, kHead.size()), kHead);  // the head stays
  return {ok, block.substr(kHead.size())};
}

TEST(ContentDecoding, InflatesGzipAndDeflateBodies) {
  std::string html = page();
  ASSERT_GT(html.size(), 10000u);
  std::string gz = compress(html, Compression::kGzip);
  for (std::string_view encoding : {"gzip", "x-gzip"}) {
    Decoded d = decode(gz, encoding);
    EXPECT_TRUE(d.ok) << encoding;
    EXPECT_EQ(d.body, html) << encoding;
  }
  Decoded d = decode(deflated(html, 15), "deflate");
  EXPECT_TRUE(d.ok);
  EXPECT_EQ(d.body, html);
  // Servers that send gzip under the name deflate: zlib's header detection takes it.
  d = decode(gz, "deflate");
  EXPECT_TRUE(d.ok);
  EXPECT_EQ(d.body, html);
}

TEST(ContentDecoding, IdentityAndNoEncodingLeaveTheBody) {
  for (std::string_view encoding : {"", "identity"}) {
    Decoded d = decode("<p>plain</p>", encoding);
    EXPECT_TRUE(d.ok);
    EXPECT_EQ(d.body, "<p>plain</p>");
  }
}

TEST(ContentDecoding, OtherEncodingsAreNotDecoded) {
  std::string gz = compress(page(), Compression::kGzip);
  for (std::string_view encoding : {"br", "compress", "zstd", "x-unknown"}) {
    Decoded d = decode(gz, encoding);
    EXPECT_FALSE(d.ok) << encoding;
    EXPECT_EQ(d.body, gz) << encoding;  // unchanged
  }
}

TEST(ContentDecoding, CorruptDataIsAnError) {
  std::string html = page();
  std::string gz = compress(html, Compression::kGzip);
  std::string bad = gz;
  for (size_t i = bad.size() / 2; i < bad.size() / 2 + 16; ++i) bad[i] ^= 0x5a;
  Decoded d = decode(bad, "gzip");
  EXPECT_FALSE(d.ok);
  EXPECT_EQ(d.body, bad);
  // Not compressed at all.
  EXPECT_FALSE(decode(html, "gzip").ok);
  EXPECT_FALSE(decode(html, "deflate").ok);
  // A zlib stream is not gzip; raw deflate (no zlib header) is not recognised as deflate.
  EXPECT_FALSE(decode(deflated(html, 15), "gzip").ok);
  EXPECT_FALSE(decode(deflated(html, -15), "deflate").ok);
}

TEST(ContentDecoding, TruncatedStreamKeepsWhatInflated) {
  std::string html = page();
  std::string gz = compress(html, Compression::kGzip);
  Decoded d = decode(gz.substr(0, gz.size() / 2), "gzip");
  EXPECT_TRUE(d.ok);
  EXPECT_GT(d.body.size(), 0u);
  EXPECT_LT(d.body.size(), html.size());
  EXPECT_EQ(d.body, html.substr(0, d.body.size()));
  // Nothing at all: an empty body.
  d = decode("", "gzip");
  EXPECT_TRUE(d.ok);
  EXPECT_EQ(d.body, "");
}

TEST(ContentDecoding, OutputIsBounded) {
  std::string html = page();
  std::string gz = compress(html, Compression::kGzip);
  EXPECT_TRUE(decode(gz, "gzip", html.size()).ok);
  Decoded d = decode(gz, "gzip", html.size() - 1);
  EXPECT_FALSE(d.ok);
  EXPECT_EQ(d.body, gz);
  // A small body that inflates to 64 MiB stops at the limit.
  std::string bomb = compress(std::string(64 << 20, '\0'), Compression::kGzip, 9);
  ASSERT_LT(bomb.size(), 200u << 10);
  EXPECT_FALSE(decode(bomb, "gzip", 1 << 20).ok);
}

}  // namespace
}  // namespace winnow::testing
