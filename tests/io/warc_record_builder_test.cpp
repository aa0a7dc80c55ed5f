#include "io/warc_record_builder.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include "io/http_response_head.h"
#include "io/warc_header_parser.h"

namespace winnow {
namespace {

WarcHeaders wget_response_headers() {
  WarcHeaders h;
  h.type = "response";
  h.target_uri = "http://127.0.0.1:41847/index.html";
  h.record_id = "<urn:uuid:eb211d7a-1a29-4724-8dc4-6704e0d8f8b8>";
  h.date = "2026-12-01T14:35:42Z";
  h.content_type = "application/http;msgtype=response";
  h.content_length = 224;
  h.has_length = true;
  return h;
}

TEST(WarcRecordBuilder, BuildsDocumentsIntoOneBatch) {
  WarcRecordBuilder rows(7, "text");
  EXPECT_EQ(rows.size(), 0u);
  WarcHeaders headers = wget_response_headers();
  HttpResponseHead http;
  http.status = 200;
  http.content_type = "text/html";
  rows.add(2, "<html><body><p>caf\xc3\xa9</p></body></html>\n", headers, &http);
  WarcHeaders resource;
  resource.target_uri = "file:///x.html";
  resource.content_type = "text/html";
  rows.add(5, "<p>resource</p>", resource, nullptr);
  EXPECT_EQ(rows.size(), 2u);
  size_t bytes = rows.bytes();
  EXPECT_GT(bytes, 60u);

  DocBatch batch;
  rows.finish(batch);
  EXPECT_EQ(rows.size(), 0u);  // empty again
  EXPECT_EQ(rows.bytes(), 0u);
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch.raw_bytes().size(), bytes);

  EXPECT_EQ(batch.key(0).value(), DocKey::make(7, 2).value());
  EXPECT_EQ(batch.id(0), "00007-0000000002");
  EXPECT_TRUE(batch.id_generated(0));
  EXPECT_EQ(batch.line(0), 3u);
  EXPECT_EQ(batch.text(0), "<html><body><p>caf\xc3\xa9</p></body></html>\n");
  EXPECT_TRUE(batch.text_unchecked(0));
  EXPECT_EQ(batch.record(0),
            "{\"url\":\"http://127.0.0.1:41847/index.html\","
            "\"warc_record_id\":\"<urn:uuid:eb211d7a-1a29-4724-8dc4-6704e0d8f8b8>\","
            "\"warc_date\":\"2026-12-01T14:35:42Z\",\"content_type\":\"text/html\","
            "\"http_status\":200,\"text\":\"\"}");

  // Not a response: the WARC Content-Type, no http_status.
  EXPECT_EQ(batch.key(1).value(), DocKey::make(7, 5).value());
  EXPECT_EQ(batch.text(1), "<p>resource</p>");
  EXPECT_EQ(batch.record(1),
            "{\"url\":\"file:///x.html\",\"warc_record_id\":\"\",\"warc_date\":\"\","
            "\"content_type\":\"text/html\",\"text\":\"\"}");
  // The records are JSON a parser reads in place (the raw buffer is padded).
  simdjson::dom::parser parser;
  for (size_t i = 0; i < batch.size(); ++i) {
    simdjson::dom::element record;
    EXPECT_EQ(parser.parse(batch.record(i).data(), batch.record(i).size(), false).get(record),
              simdjson::SUCCESS);
  }
}

TEST(WarcRecordBuilder, SanitisesAndEscapesHeaderValues) {
  WarcRecordBuilder rows(0, "body");
  WarcHeaders headers;
  headers.target_uri = "http://a/\"quoted\"\\path";
  headers.date = "caf\xe9";  // Latin-1, not UTF-8
  rows.add(0, std::string("raw \xff bytes", 11), headers, nullptr);
  DocBatch batch;
  rows.finish(batch);
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(batch.text(0), std::string("raw \xff bytes", 11));  // the payload is not touched
  EXPECT_EQ(batch.record(0),
            "{\"url\":\"http://a/\\\"quoted\\\"\\\\path\",\"warc_record_id\":\"\","
            "\"warc_date\":\"caf\xef\xbf\xbd\",\"content_type\":\"\",\"body\":\"\"}");
}

TEST(WarcRecordBuilder, EmptyBatch) {
  WarcRecordBuilder rows(1, "text");
  DocBatch batch;
  rows.finish(batch);
  EXPECT_EQ(batch.size(), 0u);
  EXPECT_EQ(batch.raw_bytes().size(), 0u);
}

}  // namespace
}  // namespace winnow
