#include "io/warc_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "io/warc_digest.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string http_response(int status, const std::string& content_type, const std::string& body,
                          const std::string& extra_headers = "") {
  return "HTTP/1.1 " + std::to_string(status) + " Whatever\r\nContent-Type: " + content_type +
         "\r\n" + extra_headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
         body;
}

std::string warc_record(const std::string& type, const std::string& uri,
                        const std::string& content_type, const std::string& block,
                        const std::string& version = "WARC/1.0") {
  static int serial = 0;
  return version + "\r\nWARC-Type: " + type + "\r\nWARC-Target-URI: " + uri +
         "\r\nWARC-Date: 2024-01-02T03:04:05Z\r\nWARC-Record-ID: <urn:uuid:" +
         std::to_string(++serial) + ">\r\nContent-Type: " + content_type +
         "\r\nContent-Length: " + std::to_string(block.size()) + "\r\n\r\n" + block + "\r\n\r\n";
}

std::string response(const std::string& uri, const std::string& body, int status = 200,
                     const std::string& content_type = "text/html; charset=utf-8") {
  return warc_record("response", uri, "application/http; msgtype=response",
                     http_response(status, content_type, body));
}

struct Read {
  struct Doc {
    std::string url, text, content_type, record;
    int64_t status = -1;
    uint64_t row = 0;
    bool unchecked = false;
  };
  std::vector<Doc> docs;
  std::vector<InputErrorRecord> errors;
  uint64_t skipped = 0;
  uint64_t batches = 0;
};

Read read_all(const std::string& path, WarcOptions options = {}) {
  WarcReader reader(path, 3, options);
  Read out;
  simdjson::dom::parser parser;
  while (auto batch = reader.next()) {
    ++out.batches;
    for (size_t i = 0; i < batch->size(); ++i) {
      Read::Doc doc;
      doc.record = std::string(batch->record(i));
      simdjson::dom::element record = parser.parse(doc.record);
      doc.url = std::string(std::string_view(record["url"]));
      doc.content_type = std::string(std::string_view(record["content_type"]));
      int64_t status;
      if (!record["http_status"].get(status)) doc.status = status;
      EXPECT_EQ(std::string_view(record["text"]), "");
      doc.text = std::string(batch->text(i));
      doc.row = batch->key(i).row();
      EXPECT_EQ(batch->key(i).shard(), 3u);
      doc.unchecked = batch->text_unchecked(i);
      out.docs.push_back(doc);
    }
    for (auto& e : batch->errors) out.errors.push_back(e);
    out.skipped += batch->skipped_records;
  }
  return out;
}

std::string gzip_per_record(const std::vector<std::string>& records) {
  std::string out;
  for (const auto& r : records) out += compress(r, Compression::kGzip);
  return out;
}

class WarcReaderTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& bytes) {
    std::string path = dir_.file(name);
    write_file(path, bytes);
    return path;
  }
  TempDir dir_;
};

std::vector<std::string> sample_records() {
  return {
      warc_record("warcinfo", "", "application/warc-fields", "software: test\r\n"),
      warc_record("request", "http://a.example/", "application/http; msgtype=request",
                  "GET / HTTP/1.1\r\nHost: a.example\r\n\r\n"),
      response("http://a.example/", "<p>first page</p>"),
      response("http://a.example/style.css", "p{}", 200, "text/css"),
      response("http://a.example/gone", "<p>not found</p>", 404),
      warc_record("metadata", "http://a.example/", "application/warc-fields", "x: y\r\n"),
      response("http://b.example/", "<p>second page</p>", 200, "application/xhtml+xml"),
  };
}

TEST_F(WarcReaderTest, KeepsHtmlResponsesAndSkipsTheRest) {
  std::string plain;
  for (const auto& r : sample_records()) plain += r;
  for (const std::string& bytes :
       {plain, gzip_per_record(sample_records()), compress(plain, Compression::kGzip)}) {
    Read read = read_all(write("a.warc.gz", bytes));
    ASSERT_EQ(read.docs.size(), 3u);
    EXPECT_TRUE(read.errors.empty());
    EXPECT_EQ(read.skipped, 4u);  // warcinfo, request, css, metadata
    EXPECT_EQ(read.docs[0].url, "http://a.example/");
    EXPECT_EQ(read.docs[0].text, "<p>first page</p>");
    EXPECT_EQ(read.docs[0].content_type, "text/html; charset=utf-8");
    EXPECT_EQ(read.docs[0].status, 200);
    EXPECT_EQ(read.docs[0].row, 2u);  // the record's index in the file
    EXPECT_TRUE(read.docs[0].unchecked);
    EXPECT_EQ(read.docs[1].url, "http://a.example/gone");
    EXPECT_EQ(read.docs[1].status, 404);
    EXPECT_EQ(read.docs[1].row, 4u);
    EXPECT_EQ(read.docs[2].url, "http://b.example/");
    EXPECT_THAT(read.docs[0].record, HasSubstr("\"warc_record_id\":\"<urn:uuid:"));
    EXPECT_THAT(read.docs[0].record, HasSubstr("\"warc_date\":\"2024-01-02T03:04:05Z\""));
  }
}

TEST_F(WarcReaderTest, FiltersByStatusContentTypeAndRecordType) {
  std::string path = write("a.warc", gzip_per_record(sample_records()));
  WarcOptions ok_only;
  ok_only.status_codes = {200};
  EXPECT_EQ(read_all(path, ok_only).docs.size(), 2u);

  WarcOptions css;
  css.content_types = {"text/*"};
  Read read = read_all(path, css);
  ASSERT_EQ(read.docs.size(), 3u);
  EXPECT_EQ(read.docs[1].url, "http://a.example/style.css");

  WarcOptions everything;
  everything.content_types = {"*"};
  everything.record_types = {"response", "resource"};
  EXPECT_EQ(read_all(path, everything).docs.size(), 4u);
}

TEST_F(WarcReaderTest, ReadsWarc11ResourceAndConversionRecords) {
  std::string bytes =
      warc_record("resource", "file:///x.html", "text/html", "<p>resource</p>", "WARC/1.1") +
      warc_record("conversion", "http://c.example/", "text/plain", "plain text\nlines", "WARC/1.1");
  std::string path = write("a.warc", bytes);
  WarcOptions resources;
  resources.record_types = {"resource"};
  Read read = read_all(path, resources);
  ASSERT_EQ(read.docs.size(), 1u);
  EXPECT_EQ(read.docs[0].text, "<p>resource</p>");
  EXPECT_EQ(read.docs[0].status, -1);  // not an HTTP response: no status field

  WarcOptions wet;
  wet.record_types = {"conversion"};
  wet.content_types = {"text/plain"};
  read = read_all(path, wet);
  ASSERT_EQ(read.docs.size(), 1u);
  EXPECT_EQ(read.docs[0].text, "plain text\nlines");
  EXPECT_EQ(read.docs[0].row, 1u);
}

TEST_F(WarcReaderTest, DecodesChunkedAndGzippedBodies) {
  std::string chunked =
      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: "
      "chunked\r\n\r\n5\r\n<p>he\r\n8;ext=1\r\nllo</p>!\r\n0\r\n\r\n";
  std::string gz_body = compress("<p>zipped</p>", Compression::kGzip);
  std::string gzipped = http_response(200, "text/html", gz_body, "Content-Encoding: gzip\r\n");
  std::string path =
      write("a.warc", warc_record("response", "http://a/", "application/http", chunked) +
                          warc_record("response", "http://b/", "application/http", gzipped));
  Read read = read_all(path);
  ASSERT_EQ(read.docs.size(), 2u);
  EXPECT_EQ(read.docs[0].text, "<p>hello</p>!");
  EXPECT_EQ(read.docs[1].text, "<p>zipped</p>");
}

TEST_F(WarcReaderTest, CorruptRecordIsAnErrorAndReadingGoesOn) {
  std::string good1 = response("http://1/", "<p>one</p>");
  std::string bad = "WARC/1.0\r\nWARC-Type: response\r\nContent-Length: lots\r\n\r\nxxxx\r\n\r\n";
  std::string garbage = "this is not a warc record\r\n\r\n";
  std::string good2 = response("http://2/", "<p>two</p>");
  std::string path = write("a.warc", good1 + bad + garbage + good2);
  Read read = read_all(path);
  ASSERT_EQ(read.docs.size(), 2u);
  EXPECT_EQ(read.docs[1].url, "http://2/");
  ASSERT_EQ(read.errors.size(), 1u);  // the garbage is skipped while resynchronising
  EXPECT_EQ(read.errors[0].kind, InputError::kCorruptWarc);
  EXPECT_EQ(read.errors[0].byte_offset, good1.size());
  EXPECT_THAT(read.errors[0].message,
              HasSubstr(path + ": record at byte " + std::to_string(good1.size())));
  EXPECT_THAT(read.errors[0].message, HasSubstr("Content-Length 'lots'"));
}

TEST_F(WarcReaderTest, TruncatedRecordIsAnErrorAfterTheGoodOnes) {
  std::string good = response("http://1/", "<p>one</p>");
  std::string cut = response("http://2/", std::string(5000, 'x'));
  cut.resize(cut.size() / 2);
  std::string path = write("a.warc", good + cut);
  Read read = read_all(path);
  ASSERT_EQ(read.docs.size(), 1u);
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kTruncatedWarc);
  EXPECT_EQ(read.errors[0].byte_offset, good.size());
  EXPECT_THAT(read.errors[0].message, HasSubstr("cut short"));

  // The same, with one gzip member per record, the last one cut: the stream error names the
  // compressed offset; the good record before it stays.
  std::string gz = gzip_per_record({good, response("http://2/", std::string(5000, 'y'))});
  gz.resize(gz.size() - 20);
  read = read_all(write("b.warc.gz", gz));
  ASSERT_EQ(read.docs.size(), 1u);
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kTruncatedCompressed);
}

TEST_F(WarcReaderTest, DamagedGzipMemberCostsOnlyItsRecord) {
  std::string a =
      compress(response("http://a/", "<p>" + std::string(3000, 'a') + "</p>"), Compression::kGzip);
  std::string b =
      compress(response("http://b/", "<p>" + std::string(3000, 'b') + "</p>"), Compression::kGzip);
  std::string c = compress(response("http://c/", "<p>c</p>"), Compression::kGzip);
  for (size_t i = b.size() / 2; i < b.size() / 2 + 8; ++i) b[i] ^= 0x55;
  std::string path = write("a.warc.gz", a + b + c);
  Read read = read_all(path);
  ASSERT_EQ(read.docs.size(), 2u);
  EXPECT_EQ(read.docs[0].url, "http://a/");
  EXPECT_EQ(read.docs[1].url, "http://c/");
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kCorruptCompressed);
  EXPECT_THAT(read.errors[0].message, HasSubstr(path + ": corrupt gzip data near compressed byte"));
  // What happens to the record is the error policy's to say, not the reader's.
  EXPECT_THAT(read.errors[0].message, Not(HasSubstr("skipped")));
}

// The member's CRC-32 and length are checked before its record goes out: a member whose
// bytes inflate (garbled) but fail the check makes its own record the error, at its offset.
TEST_F(WarcReaderTest, MemberFailingItsCheckIsItsRecordsError) {
  std::string a = response("http://a/", "<p>" + std::string(3000, 'a') + "</p>");
  std::string b = response("http://b/", "<p>" + std::string(3000, 'b') + "</p>");
  std::string c = response("http://c/", "<p>c</p>");
  std::string stored = compress(b, Compression::kGzip, 0);  // flipped bytes inflate as garbage
  for (size_t i = stored.size() / 2; i < stored.size() / 2 + 8; ++i) stored[i] ^= 0x55;
  std::string trailer = compress(b, Compression::kGzip);  // right bytes, wrong CRC and length
  for (size_t i = trailer.size() - 8; i < trailer.size(); ++i) trailer[i] ^= 0x55;
  for (const std::string& member : {stored, trailer}) {
    std::string path =
        write("a.warc.gz", compress(a, Compression::kGzip) + member + compress(c, Compression::kGzip));
    for (size_t batch : {1u, 1024u}) {
      WarcOptions options;
      options.batch_records = batch;
      Read read = read_all(path, options);
      ASSERT_EQ(read.docs.size(), 2u);
      EXPECT_EQ(read.docs[0].url, "http://a/");
      EXPECT_EQ(read.docs[1].url, "http://c/");
      EXPECT_EQ(read.docs[1].row, 2u);
      ASSERT_EQ(read.errors.size(), 1u);
      EXPECT_EQ(read.errors[0].kind, InputError::kCorruptCompressed);
      EXPECT_EQ(read.errors[0].byte_offset, a.size());
      EXPECT_THAT(read.errors[0].message, HasSubstr("incorrect"));
    }
  }
  // The last record's member cut inside its trailer: its bytes are all there, unchecked.
  std::string last = compress(c, Compression::kGzip);
  Read read = read_all(write("b.warc.gz", compress(a, Compression::kGzip) +
                                              last.substr(0, last.size() - 4)));
  ASSERT_EQ(read.docs.size(), 1u);
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kTruncatedCompressed);
  EXPECT_EQ(read.errors[0].byte_offset, a.size());
}

// A record with a WARC-Block-Digest (and a WARC-Payload-Digest), a Content-Length off by
// `delta`, as `type` with a body of `body`.
std::string digested(const std::string& uri, const std::string& body, int64_t delta = 0,
                     const std::string& type = "response", bool block_digest = true,
                     std::string payload_digest = "") {
  std::string block = type == "response" ? http_response(200, "text/html", body) : body;
  std::string headers;
  if (block_digest) headers += "WARC-Block-Digest: " + warc_digest_text(sha1(block)) + "\r\n";
  if (payload_digest.empty()) payload_digest = warc_digest_text(sha1(body));
  headers += "WARC-Payload-Digest: " + payload_digest + "\r\n";
  return "WARC/1.0\r\nWARC-Type: " + type + "\r\nWARC-Target-URI: " + uri + "\r\n" + headers +
         "Content-Type: " +
         (type == "response" ? "application/http; msgtype=response" : "text/html") +
         "\r\nContent-Length: " + std::to_string(static_cast<int64_t>(block.size()) + delta) +
         "\r\n\r\n" + block + "\r\n\r\n";
}

std::vector<std::string> urls(const Read& read) {
  std::vector<std::string> out;
  for (const auto& d : read.docs) out.push_back(d.url);
  return out;
}

// Each record must be followed by its "\r\n\r\n" and the next version line: a Content-Length
// that lies is the lying record's error, and the records after it are read.
TEST_F(WarcReaderTest, LyingContentLengthIsTheLyingRecordsError) {
  std::string a = digested("http://a/", "<p>a</p>");
  std::string c = digested("http://c/", "<p>" + std::string(500, 'c') + "</p>");
  std::string d = digested("http://d/", "<p>d</p>");
  struct Case {
    const char* name;
    int64_t delta;
    bool digests;
  };
  for (const Case& k : {Case{"too long", 300, true}, Case{"too long", 300, false},
                        Case{"too short", -5, true}, Case{"too short", -5, false},
                        Case{"ends on c's end", 0, true}}) {
    bool ends_on_c = k.delta == 0;
    SCOPED_TRACE(std::string(k.name) + (k.digests ? " with digests" : " without"));
    std::string b_true = digested("http://b/", "<p>b</p>", 0, "response", k.digests);
    std::string b_lie = digested("http://b/", "<p>b</p>", ends_on_c ? int64_t(c.size()) : k.delta,
                                 "response", k.digests);
    // The lying header, then the bytes as they really are.
    std::string bytes = a + b_lie.substr(0, b_lie.find("\r\n\r\n") + 4) +
                        b_true.substr(b_true.find("\r\n\r\n") + 4) + c + d;
    for (bool gz : {false, true}) {
      std::string file = gz ? gzip_per_record({a, bytes.substr(a.size(), bytes.size() - a.size() -
                                                                           c.size() - d.size()),
                                                c, d})
                            : bytes;
      Read read = read_all(write(gz ? "a.warc.gz" : "a.warc", file));
      ASSERT_EQ(read.errors.size(), 1u) << gz;
      EXPECT_EQ(read.errors[0].kind, InputError::kCorruptWarc);
      EXPECT_EQ(read.errors[0].byte_offset, a.size()) << read.errors[0].message;
      EXPECT_THAT(read.errors[0].message,
                  HasSubstr(ends_on_c ? "WARC-Block-Digest" : "Content-Length"));
      EXPECT_EQ(urls(read), (std::vector<std::string>{"http://a/", "http://c/", "http://d/"}));
    }
  }
}

TEST_F(WarcReaderTest, DigestsAreCheckedUnlessTurnedOff) {
  std::string good = digested("http://good/", "<p>good</p>");
  std::string bad_block = digested("http://bad/", "<p>bad</p>");
  bad_block.replace(bad_block.find("<p>bad"), 6, "<p>BAD");  // same length, other bytes
  std::string payload_only = digested("http://payload/", "<p>payload</p>", 0, "response", false);
  std::string bad_payload = digested("http://bad-payload/", "<p>x</p>", 0, "response", false,
                                     warc_digest_text(sha1("<p>y</p>")));
  std::string other_algorithm = digested("http://sha256/", "<p>z</p>", 0, "response", false,
                                         "sha256:whatever");
  std::string resource = digested("file:///r.html", "<p>resource</p>", 0, "resource");
  std::string path = write("a.warc", good + bad_block + payload_only + bad_payload +
                                         other_algorithm + resource);
  WarcOptions options;
  options.record_types = {"response", "resource"};
  Read read = read_all(path, options);
  EXPECT_EQ(urls(read), (std::vector<std::string>{"http://good/", "http://payload/",
                                                  "http://sha256/", "file:///r.html"}));
  ASSERT_EQ(read.errors.size(), 2u);
  EXPECT_THAT(read.errors[0].message, HasSubstr("its WARC-Block-Digest (sha1:"));
  EXPECT_EQ(read.errors[0].byte_offset, good.size());
  EXPECT_THAT(read.errors[1].message, HasSubstr("its WARC-Payload-Digest"));

  options.verify_digests = false;
  read = read_all(path, options);
  EXPECT_EQ(read.docs.size(), 6u);
  EXPECT_TRUE(read.errors.empty());
}

// Writers differ on a chunked body's payload digest: before or after dechunking; both pass.
TEST_F(WarcReaderTest, ChunkedPayloadDigestMatchesEitherWay) {
  std::string body = "5\r\n<p>he\r\n5\r\nllo</\r\n2\r\np>\r\n0\r\n\r\n";
  std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n";
  std::string records;
  for (const std::string& digested_bytes : {body, std::string("<p>hello</p>")}) {
    std::string block = head + body;
    records += "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://x/\r\n"
               "WARC-Payload-Digest: " + warc_digest_text(sha1(digested_bytes)) +
               "\r\nContent-Type: application/http\r\nContent-Length: " +
               std::to_string(block.size()) + "\r\n\r\n" + block + "\r\n\r\n";
  }
  Read read = read_all(write("a.warc", records));
  EXPECT_TRUE(read.errors.empty()) << (read.errors.empty() ? "" : read.errors[0].message);
  ASSERT_EQ(read.docs.size(), 2u);
  EXPECT_EQ(read.docs[1].text, "<p>hello</p>");
}

// A record whose digest vouches for it is kept; the junk after it is the error.
TEST_F(WarcReaderTest, JunkAfterAVerifiedRecordIsTheJunksError) {
  std::string a = digested("http://a/", "<p>a</p>");
  std::string junk = "some junk that is no record\r\n";
  std::string b = digested("http://b/", "<p>b</p>");
  Read read = read_all(write("a.warc", a + junk + b));
  EXPECT_EQ(urls(read), (std::vector<std::string>{"http://a/", "http://b/"}));
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].byte_offset, a.size());
  EXPECT_THAT(read.errors[0].message, HasSubstr("expected a 'WARC/1.0' or 'WARC/1.1' line"));
}

// An unwanted record is skipped without being read, yet its lie is still reported.
TEST_F(WarcReaderTest, UnwantedRecordsLyingLengthIsReported) {
  std::string request = warc_record("request", "http://a/", "application/http; msgtype=request",
                                    "GET / HTTP/1.1\r\n\r\n");
  std::string lie = request;
  lie.replace(lie.find("Content-Length: ") + 16, 2, std::to_string(18 + 40));
  std::string a = response("http://a/", "<p>" + std::string(100, 'a') + "</p>");
  std::string b = response("http://b/", "<p>b</p>");
  Read read = read_all(write("a.warc", lie + a + b));
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].byte_offset, 0u);
  EXPECT_THAT(read.errors[0].message, HasSubstr("Content-Length (58)"));
  EXPECT_EQ(read.skipped, 0u);
  // Its block was not read, so the record it swallowed the start of is lost with it.
  EXPECT_EQ(urls(read), (std::vector<std::string>{"http://b/"}));
}

TEST_F(WarcReaderTest, OversizedRecordIsSkippedAsAnError) {
  std::string path = write("a.warc", response("http://big/", std::string(100000, 'b')) +
                                         response("http://small/", "<p>s</p>"));
  WarcOptions options;
  options.max_record_bytes = 1000;
  Read read = read_all(path, options);
  ASSERT_EQ(read.docs.size(), 1u);
  EXPECT_EQ(read.docs[0].url, "http://small/");
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kRecordTooLarge);
}

TEST_F(WarcReaderTest, EmptyAndMissingFiles) {
  Read read = read_all(write("empty.warc", ""));
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kEmptyFile);
  read = read_all(dir_.file("missing.warc"));
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kUnreadableFile);
}

TEST_F(WarcReaderTest, BatchesFollowTheLimits) {
  std::vector<std::string> records;
  for (int i = 0; i < 25; ++i)
    records.push_back(response("http://" + std::to_string(i) + "/", "x"));
  WarcOptions options;
  options.batch_records = 10;
  Read read = read_all(write("a.warc.gz", gzip_per_record(records)), options);
  EXPECT_EQ(read.docs.size(), 25u);
  EXPECT_EQ(read.batches, 4u);  // 10 + 10 + 5, then the end-of-shard batch
  for (size_t i = 0; i < read.docs.size(); ++i) EXPECT_EQ(read.docs[i].row, i);
}

TEST_F(WarcReaderTest, RecognisesWarcNames) {
  EXPECT_TRUE(WarcReader::is_warc_path("x/CC-MAIN-1.warc.gz"));
  EXPECT_TRUE(WarcReader::is_warc_path("a.warc"));
  EXPECT_TRUE(WarcReader::is_warc_path("a.WARC.zst"));
  EXPECT_FALSE(WarcReader::is_warc_path("a.jsonl.gz"));
  EXPECT_FALSE(WarcReader::is_warc_path("warc.jsonl"));
}

}  // namespace
}  // namespace winnow::testing
