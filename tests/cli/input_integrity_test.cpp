// End-to-end tests of input integrity through the `winnow` binary (issue #12): damaged gzip
// members and lying Content-Lengths in WARC files, truncated compressed JSONL, symbolic links
// among the inputs, and an earlier run's output folder read as input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>

#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

struct ErrorLine {
  std::string kind, message;
  uint64_t byte_offset = 0;
};

std::vector<ErrorLine> error_lines(const std::string& path) {
  std::vector<ErrorLine> out;
  if (!fs::exists(path)) return out;
  simdjson::dom::parser parser;
  for (const std::string& line : split_lines(read_file(path))) {
    simdjson::dom::element e = parser.parse(line);
    out.push_back({std::string(std::string_view(e["error"])),
                   std::string(std::string_view(e["message"])), uint64_t(e["byte_offset"])});
  }
  return out;
}

// The value of `field` in every line of a JSONL output file.
std::vector<std::string> field_values(const std::string& path, const char* field) {
  std::vector<std::string> out;
  if (!fs::exists(path)) return out;
  simdjson::dom::parser parser;
  for (const std::string& line : split_lines(read_file(path))) {
    out.emplace_back(std::string_view(parser.parse(line)[field]));
  }
  return out;
}

// sha1 of `bytes` in base32, as WARC writers put it in WARC-Block-Digest (computed by Python,
// an implementation independent of winnow's).
std::string sha1_base32(const TempDir& dir, std::string_view bytes) {
  std::string path = dir.file("digest-input");
  write_file(path, bytes);
  std::string out;
  EXPECT_EQ(run_command("python3 -c 'import base64,hashlib,sys; "
                        "print(base64.b32encode(hashlib.sha1(open(sys.argv[1],\"rb\").read())"
                        ".digest()).decode(), end=\"\")' " +
                            path,
                        &out),
            0)
      << out;
  return out;
}

std::string page(const std::string& name) {
  return read_file("/usr/share/doc/python3/html/tutorial/" + name);
}

std::string http_response(const std::string& body) {
  return "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

// A WARC response record as wget writes it: with WARC-Block-Digest and WARC-Payload-Digest
// when `dir` is given. `length_delta` makes its Content-Length lie.
std::string response_record(const std::string& uri, const std::string& body,
                            const TempDir* dir = nullptr, int64_t length_delta = 0) {
  std::string block = http_response(body);
  std::string digests;
  if (dir) {
    digests = "WARC-Block-Digest: sha1:" + sha1_base32(*dir, block) +
              "\r\nWARC-Payload-Digest: sha1:" + sha1_base32(*dir, body) + "\r\n";
  }
  return "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri +
         "\r\nWARC-Date: 2024-01-02T03:04:05Z\r\nWARC-Record-ID: <urn:uuid:" + uri + ">\r\n" +
         digests + "Content-Type: application/http; msgtype=response\r\nContent-Length: " +
         std::to_string(static_cast<int64_t>(block.size()) + length_delta) + "\r\n\r\n" + block +
         "\r\n\r\n";
}

const char* kSkipJsonl = "output: {format: jsonl}\non_error: skip\nstages: []\n";

// --- 1. A damaged gzip member ----------------------------------------------------------------

// The record whose member fails its CRC-32 is the error, at its own offset; its text is not
// kept, and the records around it are.
TEST(InputIntegrity, GzipMemberFailingItsCheckMakesItsRecordAnError) {
  std::string a = response_record("http://a/", page("appetite.html"));
  std::string b = response_record("http://b/", page("interpreter.html"));
  std::string c = response_record("http://c/", page("whatnow.html"));
  std::string gz_a = compress(a, Compression::kGzip);
  std::string gz_c = compress(c, Compression::kGzip);
  struct Damage {
    std::string name, member;
  };
  // Stored (level 0): 8 flipped bytes inflate to garbled text without an inflate error, so
  // only the CRC-32 at the member's end can tell. Compressed: the 8 bytes flipped are the
  // member's own CRC-32 and length.
  std::string stored = compress(b, Compression::kGzip, 0);
  for (size_t i = stored.size() / 2; i < stored.size() / 2 + 8; ++i) stored[i] ^= 0x55;
  std::string trailer = compress(b, Compression::kGzip);
  for (size_t i = trailer.size() - 8; i < trailer.size(); ++i) trailer[i] ^= 0x55;
  for (const Damage& damage : {Damage{"stored", stored}, Damage{"trailer", trailer}}) {
    SCOPED_TRACE(damage.name);
    TempDir dir;
    std::string input = dir.file("a.warc.gz");
    write_file(input, gz_a + damage.member + gz_c);
    std::string out;
    ASSERT_EQ(winnow("run " + pipeline_file(dir, kSkipJsonl) + " -q -i " + input + " -o " +
                         dir.file("out"),
                     &out),
              0)
        << out;
    EXPECT_EQ(field_values(dir.file("out/a.warc.jsonl"), "url"),
              (std::vector<std::string>{"http://a/", "http://c/"}));
    std::vector<ErrorLine> errors = error_lines(dir.file("out/errors/a.warc.jsonl"));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].kind, "corrupt_compressed");
    EXPECT_EQ(errors[0].byte_offset, a.size()) << errors[0].message;
    EXPECT_THAT(errors[0].message, HasSubstr("record at byte " + std::to_string(a.size())));

    // Under on_error: fail the run stops at that record.
    EXPECT_EQ(winnow("run " + pipeline_file(dir, "output: {format: jsonl}\n") + " -q -i " +
                         input + " -o " + dir.file("fail"),
                     &out),
              1);
    EXPECT_THAT(out, HasSubstr("record at byte " + std::to_string(a.size())));
    // It stopped there: the message must not say the record was skipped.
    EXPECT_THAT(out, Not(HasSubstr("skipped")));
  }
}

// --- 2. A lying Content-Length --------------------------------------------------------------

TEST(InputIntegrity, ContentLengthTooLargeIsTheLyingRecordsError) {
  TempDir dir;
  std::string a = response_record("http://a/", page("appetite.html"));
  std::string b = response_record("http://b/", page("interpreter.html"), nullptr, 3000);
  std::string c = response_record("http://c/", page("whatnow.html"));
  std::string d = response_record("http://d/", page("appendix.html"));
  ASSERT_GT(c.size(), 4000u);  // b's 3,000 extra bytes end inside c's body
  std::string input = dir.file("a.warc");
  write_file(input, a + b + c + d);
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline_file(dir, kSkipJsonl) + " -q -i " + input + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  std::vector<ErrorLine> errors = error_lines(dir.file("out/errors/a.warc.jsonl"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].kind, "corrupt_warc");
  EXPECT_EQ(errors[0].byte_offset, a.size()) << errors[0].message;
  EXPECT_THAT(errors[0].message, HasSubstr("Content-Length"));
  // The record whose headers b swallowed is found again where b really ends.
  EXPECT_EQ(field_values(dir.file("out/a.warc.jsonl"), "url"),
            (std::vector<std::string>{"http://a/", "http://c/", "http://d/"}));
  EXPECT_THAT(read_file(dir.file("out/a.warc.jsonl")), Not(HasSubstr("WARC-Type")));
}

// Ending exactly on the next record's end, the framing looks right: only the block digest
// (wget writes it) tells, and input.warc.verify_digests: false turns the check off.
TEST(InputIntegrity, ContentLengthEndingOnTheNextRecordIsCaughtByTheBlockDigest) {
  TempDir dir;
  std::string a = response_record("http://a/", page("appetite.html"), &dir);
  std::string b_true = response_record("http://b/", page("interpreter.html"), &dir);
  std::string c = response_record("http://c/", page("whatnow.html"), &dir);
  std::string d = response_record("http://d/", page("appendix.html"), &dir);
  // b's Content-Length covers b's block, its trailer and c up to c's own trailer.
  std::string b = response_record("http://b/", page("interpreter.html"), &dir,
                                  static_cast<int64_t>(c.size()));
  std::string input = dir.file("a.warc");
  // b's header promises more bytes; the bytes that follow are b's true block and c.
  std::string b_head = b.substr(0, b.find("\r\n\r\n") + 4);
  std::string b_rest = b_true.substr(b_true.find("\r\n\r\n") + 4);
  write_file(input, a + b_head + b_rest + c + d);

  std::string out;
  ASSERT_EQ(winnow("run " + pipeline_file(dir, kSkipJsonl) + " -q -i " + input + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  std::vector<ErrorLine> errors = error_lines(dir.file("out/errors/a.warc.jsonl"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].kind, "corrupt_warc");
  EXPECT_EQ(errors[0].byte_offset, a.size()) << errors[0].message;
  EXPECT_THAT(errors[0].message, HasSubstr("WARC-Block-Digest"));
  EXPECT_EQ(field_values(dir.file("out/a.warc.jsonl"), "url"),
            (std::vector<std::string>{"http://a/", "http://c/", "http://d/"}));

  // Without the check the lie goes through (b holds c), as documented.
  ASSERT_EQ(winnow("run " +
                       pipeline_file(dir, "output: {format: jsonl}\non_error: skip\n"
                                          "input: {warc: {verify_digests: false}}\n") +
                       " -q -i " + input + " -o " + dir.file("unchecked"),
                   &out),
            0)
      << out;
  EXPECT_TRUE(error_lines(dir.file("unchecked/errors/a.warc.jsonl")).empty());
  EXPECT_EQ(field_values(dir.file("unchecked/a.warc.jsonl"), "url"),
            (std::vector<std::string>{"http://a/", "http://b/", "http://d/"}));
}

// --- 3. A truncated .gz / .zst --------------------------------------------------------------

// ~20,000 real documents: the paragraphs of this machine's license and copyright texts.
const char* kMakeCorpus = R"(
import glob, json, sys
paths = sorted(glob.glob('/usr/share/common-licenses/*')) + sorted(glob.glob('/usr/share/doc/*/copyright'))
n = 0
with open(sys.argv[1], 'w', encoding='utf-8') as out:
    for path in paths:
        try:
            text = open(path, 'rb').read().decode('utf-8', 'replace')
        except OSError:
            continue
        for i, para in enumerate(p.strip() for p in text.split('\n\n')):
            if not para or n == 20000:
                continue
            out.write(json.dumps({'id': '%s-%d' % (path, i), 'text': para}, ensure_ascii=False) + '\n')
            n += 1
)";

// Whole lines (ending in a newline) that `command` writes.
uint64_t whole_lines(const std::string& command) {
  std::string out;
  run_command(command + " 2>/dev/null | wc -l", &out);
  return std::stoull(out);
}

TEST(InputIntegrity, TruncatedCompressedJsonlKeepsEveryRecordThatDecompressed) {
  TempDir dir;
  std::string script = dir.file("make_corpus.py");
  write_file(script, kMakeCorpus);
  std::string out;
  ASSERT_EQ(run_command("python3 " + script + " " + dir.file("corpus.jsonl"), &out), 0) << out;
  ASSERT_EQ(run_command("gzip -k " + dir.file("corpus.jsonl") + " && zstd -q -k " +
                            dir.file("corpus.jsonl"),
                        &out),
            0)
      << out;
  ASSERT_EQ(whole_lines("cat " + dir.file("corpus.jsonl")), 20000u);
  std::string pipeline = pipeline_file(dir, kSkipJsonl);
  for (const char* ext : {"gz", "zst"}) {
    std::string whole = read_file(dir.file(std::string("corpus.jsonl.") + ext));
    for (int percent : {25, 50, 75, 90}) {
      SCOPED_TRACE(std::string(ext) + " cut at " + std::to_string(percent) + "%");
      std::string input = dir.file("cut.jsonl." + std::string(ext));
      write_file(input, std::string_view(whole).substr(0, whole.size() * percent / 100));
      // What the reference tools decompress: zcat, and Python's zlib (everything inflate can
      // give before the cut); zstd -dc.
      uint64_t expected, zcat = 0;
      if (std::string(ext) == "gz") {
        zcat = whole_lines("zcat " + input);
        expected = whole_lines(
            "python3 -c 'import sys,zlib; d=zlib.decompressobj(31); "
            "sys.stdout.buffer.write(d.decompress(open(sys.argv[1],\"rb\").read()))' " +
            input);
        EXPECT_GE(expected, zcat);
      } else {
        expected = whole_lines("zstd -dc " + input);
      }
      std::string output = dir.file(std::string("out-") + ext + std::to_string(percent));
      ASSERT_EQ(winnow("run " + pipeline + " -q -i " + input + " -o " + output, &out), 0) << out;
      uint64_t kept = stats_total(output + "/stats.json", "kept");
      std::cout << "[ " << ext << " cut at " << percent << "% ] whole records: " << expected
                << (zcat ? " (zcat " + std::to_string(zcat) + ")" : "") << ", winnow kept "
                << kept << "\n";
      EXPECT_EQ(kept, expected);
      EXPECT_EQ(stats_total(output + "/stats.json", "errors"), 1u);
      std::vector<ErrorLine> errors = error_lines(output + "/errors/cut.jsonl");
      ASSERT_EQ(errors.size(), 1u);
      EXPECT_EQ(errors[0].kind, "truncated_compressed");
    }
  }
}

// --- 4. Symbolic links among the inputs -----------------------------------------------------

class InputLinks : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.file("in"));
    fs::create_directories(dir_.file("elsewhere/folder"));
    write_file(dir_.file("in/a.jsonl"), "{\"text\": \"inside\"}\n");
    write_file(dir_.file("elsewhere/secret.jsonl"), "{\"text\": \"outside file\"}\n");
    write_file(dir_.file("elsewhere/folder/b.jsonl"), "{\"text\": \"outside folder\"}\n");
    fs::create_symlink(dir_.file("elsewhere/secret.jsonl"), dir_.file("in/secret.jsonl"));
    fs::create_directory_symlink(dir_.file("elsewhere/folder"), dir_.file("in/linked"));
    fs::create_symlink(dir_.file("nowhere.jsonl"), dir_.file("in/dangling.jsonl"));
  }
  std::vector<std::string> kept_texts(const std::string& out) {
    std::vector<std::string> texts;
    for (const auto& entry : fs::directory_iterator(out)) {
      if (entry.path().extension() != ".jsonl" || entry.path().filename() == "metrics.jsonl") {
        continue;
      }
      for (auto& t : field_values(entry.path().string(), "text")) texts.push_back(t);
    }
    std::sort(texts.begin(), texts.end());
    return texts;
  }
  TempDir dir_;
};

// Inside a folder links are not followed by default: a link out of the input folder is not
// read, and neither is a linked folder nor a dangling link (the run goes on).
TEST_F(InputLinks, LinksInsideAFolderAreNotFollowedByDefault) {
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline_file(dir_, "output: {format: jsonl}\n") + " -q -i " +
                       dir_.file("in") + " -o " + dir_.file("out"),
                   &out),
            0)
      << out;
  EXPECT_EQ(kept_texts(dir_.file("out")), (std::vector<std::string>{"inside"}));
}

// input.follow_links: true follows them, linked folders included; a dangling one is skipped.
TEST_F(InputLinks, FollowLinksReadsLinkedFilesAndFolders) {
  std::string out;
  ASSERT_EQ(winnow("run " +
                       pipeline_file(dir_, "input: {follow_links: true}\n"
                                           "output: {format: jsonl}\n") +
                       " -q -i " + dir_.file("in") + " -o " + dir_.file("out"),
                   &out),
            0)
      << out;
  EXPECT_EQ(kept_texts(dir_.file("out")),
            (std::vector<std::string>{"inside", "outside file", "outside folder"}));
}

// A link named on the command line is followed; a dangling one is refused before anything is
// read, naming it.
TEST_F(InputLinks, NamedLinksAreFollowedAndADanglingOneIsRefused) {
  std::string out;
  std::string pipeline = pipeline_file(dir_, "output: {format: jsonl}\n");
  ASSERT_EQ(winnow("run " + pipeline + " -q -i " + dir_.file("in/secret.jsonl") + " -i " +
                       dir_.file("in/linked") + " -o " + dir_.file("out"),
                   &out),
            0)
      << out;
  EXPECT_EQ(kept_texts(dir_.file("out")),
            (std::vector<std::string>{"outside file", "outside folder"}));

  int rc = winnow("run " + pipeline + " -q -i " + dir_.file("in/a.jsonl") + " -i " +
                      dir_.file("in/dangling.jsonl") + " -o " + dir_.file("bad"),
                  &out);
  EXPECT_NE(rc, 0);
  EXPECT_THAT(out, HasSubstr(dir_.file("in/dangling.jsonl")));
  EXPECT_THAT(out, HasSubstr("dangling symbolic link"));
  EXPECT_FALSE(fs::exists(dir_.file("bad"))) << "a refused input must not touch the output";
}

// A bad path is a bad command line: exit 2, like a bad pipeline file, before anything is read
// or written.
TEST_F(InputLinks, BadPathExitsTwo) {
  std::string out;
  std::string pipeline = pipeline_file(dir_, "output: {format: jsonl}\n");
  for (const char* bad : {"in/dangling.jsonl", "in/missing.jsonl"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(winnow("run " + pipeline + " -q -i " + dir_.file(bad) + " -o " + dir_.file("bad"),
                     &out),
              2)
        << out;
    EXPECT_FALSE(fs::exists(dir_.file("bad")));
  }
}

// --- 5. Chaining runs -----------------------------------------------------------------------

// A glob over an earlier run's output folder picks up its kept shards only: not metrics.jsonl,
// stats.json, _done/, rejected/ or errors/.
TEST(InputIntegrity, GlobOverAnOutputFolderTakesItsKeptShardsOnly) {
  TempDir dir;
  fs::create_directories(dir.file("in"));
  std::string docs;
  for (int i = 0; i < 50; ++i) {
    docs += "{\"id\": \"d" + std::to_string(i) + "\", \"text\": \"" +
            std::string(i % 2 ? 40 : 5, 'x') + "\"}\n";
  }
  write_file(dir.file("in/a.jsonl"), docs + "{\"text\": broken}\n");
  std::string first = pipeline_file(dir,
                                    "output: {format: jsonl}\non_error: skip\n"
                                    "stages:\n  - stage: text_length\n    min_chars: 10\n");
  std::string out;
  ASSERT_EQ(winnow("run " + first + " -q -i " + dir.file("in") + " -o " + dir.file("run1"), &out),
            0)
      << out;
  ASSERT_EQ(stats_total(dir.file("run1/stats.json"), "kept"), 25u);
  ASSERT_TRUE(fs::exists(dir.file("run1/metrics.jsonl")));
  ASSERT_TRUE(fs::exists(dir.file("run1/rejected/a.jsonl")));
  ASSERT_TRUE(fs::exists(dir.file("run1/errors/a.jsonl")));

  std::string second = pipeline_file(dir, "output: {format: jsonl}\nstages: []\n");
  for (std::string glob : {"run1/*.jsonl", "run1/*", "run1/*.json*"}) {
    SCOPED_TRACE(glob);
    std::string output = dir.file("run2-" + std::to_string(std::hash<std::string>()(glob)));
    ASSERT_EQ(winnow("run " + second + " -q -i '" + dir.file(glob) + "' -o " + output, &out), 0)
        << out;
    EXPECT_EQ(stats_total(output + "/stats.json", "documents"), 25u);
    EXPECT_EQ(stats_total(output + "/stats.json", "kept"), 25u);
    EXPECT_EQ(stats_total(output + "/stats.json", "errors"), 0u);
  }
  // Named explicitly, a bookkeeping file is read anyway.
  ASSERT_EQ(winnow("run " + second + " -q --on-error skip -i " + dir.file("run1/rejected/a.jsonl") +
                       " -o " + dir.file("run3"),
                   &out),
            0)
      << out;
  EXPECT_EQ(stats_total(dir.file("run3/stats.json"), "kept"), 25u);
}

}  // namespace
}  // namespace winnow::testing
