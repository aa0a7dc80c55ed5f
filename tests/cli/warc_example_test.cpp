// The web example end to end: a real WARC made by crawling a local HTTP server (python3's
// http.server on 127.0.0.1 serving Debian's HTML documentation) with `wget --warc-file`, run
// through examples/warc_pipeline.yaml. Checks which pages come out, their text, the charset
// handling on a Latin-1 copy of a page, that a binary served as text/html is dropped, and that
// the output does not depend on threads or batch sizes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <simdjson.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

const std::string kPythonDocs = "/usr/share/doc/python3/html";
const std::string kDebianReference = "/usr/share/doc/debian-reference-fr/docs";

// python3 -m http.server on 127.0.0.1 and a port the system picks; stopped on destruction.
class LocalHttpServer {
 public:
  LocalHttpServer(const std::string& root, const TempDir& dir) {
    std::string log = dir.file("server.log");
    std::string pid_file = dir.file("server.pid");
    run_command("python3 -u -m http.server 0 --bind 127.0.0.1 --directory '" + root + "' > '" +
                log + "' 2>&1 & echo $! > '" + pid_file + "'");
    pid_ = std::stoi(read_file(pid_file));
    // The whole announcement ("... port N (http://...") so that a log read while the server
    // is still writing it never yields a cut-off port number.
    std::regex port_pattern("port ([0-9]+) \\(http");
    for (int i = 0; i < 200 && port_ == 0; ++i) {
      std::smatch match;
      std::string text = read_file(log);
      if (std::regex_search(text, match, port_pattern)) {
        port_ = std::stoi(match[1]);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
  }
  ~LocalHttpServer() {
    if (pid_ > 0) ::kill(pid_, SIGTERM);
  }
  int port() const { return port_; }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/" + path;
  }

 private:
  int pid_ = 0;
  int port_ = 0;
};

struct Doc {
  std::string text, charset, language, drop_reason;
  int64_t http_status = 0;
};

// url -> document, from every JSONL file under `folder` (kept or rejected).
std::map<std::string, Doc> read_docs(const std::string& folder) {
  std::map<std::string, Doc> docs;
  simdjson::dom::parser parser;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".jsonl") continue;
    if (entry.path().filename() == "metrics.jsonl") continue;  // the run's metrics, not documents
    for (const std::string& line : split_lines(read_file(entry.path().string()))) {
      if (line.empty()) continue;
      simdjson::dom::element record = parser.parse(line);
      Doc doc;
      doc.text = std::string(std::string_view(record["text"]));
      doc.charset = std::string(std::string_view(record["charset"]));
      doc.http_status = int64_t(record["http_status"]);
      std::string_view language;
      if (!record["html_extract_language"].get(language)) doc.language = std::string(language);
      std::string_view stage, reason;
      if (!record["winnow_drop"]["stage"].get(stage) &&
          !record["winnow_drop"]["reason"].get(reason)) {
        doc.drop_reason = std::string(stage) + "/" + std::string(reason);
      }
      docs[std::string(std::string_view(record["url"]))] = doc;
    }
  }
  return docs;
}

class WarcExample : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto& path : {kPythonDocs, kDebianReference}) {
      if (!fs::exists(path)) GTEST_SKIP() << path << " is missing (scripts/setup installs it)";
    }
    site_ = dir_.file("site");
    fs::create_directories(site_ + "/local");
    fs::create_directory_symlink(kPythonDocs, site_ + "/py");
    fs::create_directory_symlink(kDebianReference, site_ + "/deb");
    // A real page in ISO-8859-1, its <meta> saying so, and the same bytes back in UTF-8: both
    // must give the same text.
    std::string local = site_ + "/local/";
    ASSERT_EQ(run_command("iconv -f UTF-8 -t ISO-8859-1//TRANSLIT " + kDebianReference +
                          "/apa.fr.html | sed 's/charset=UTF-8/charset=ISO-8859-1/' > " + local +
                          "latin1.html"),
              0);
    ASSERT_EQ(run_command("iconv -f ISO-8859-1 -t UTF-8 " + local +
                          "latin1.html | sed 's/charset=ISO-8859-1/charset=UTF-8/' > " + local +
                          "roundtrip.html"),
              0);
    ASSERT_NE(read_file(local + "latin1.html"), read_file(local + "roundtrip.html"));
    // A binary served as text/html.
    fs::copy_file("/bin/true", local + "binary.html");
    // A page with nothing but navigation: no main text.
    write_file(local + "navigation.html",
               "<html><head><title>Index</title></head><body><nav><a href=\"a.html\">Home</a> | "
               "<a href=\"b.html\">Next</a></nav></body></html>\n");

    server_ = std::make_unique<LocalHttpServer>(site_, dir_);
    ASSERT_NE(server_->port(), 0) << read_file(dir_.file("server.log"));
    fs::create_directories(dir_.file("warc"));
    // wget exits 8 when a link 404s (and here one page is missing on purpose); the WARC is fine.
    // Under load python's http.server now and then closes a connection before answering
    // ("No data received", exit 4 with a single try): wget retries such a page.
    std::string wget = "cd '" + dir_.path() +
                       "' && wget -nv --tries=3 --waitretry=1 --timeout=20 -e robots=off "
                       "--no-host-directories ";
    std::string log;
    int rc = run_command(wget + "--warc-file=warc/crawl -r -l 1 -np -P dl " +
                             server_->url("py/tutorial/index.html") + " 2>&1",
                         &log);
    ASSERT_TRUE(rc == 0 || rc == 8) << rc << "\n" << log << read_file(dir_.file("server.log"));
    rc = run_command(wget + "--warc-file=warc/pages -P dl2 " + server_->url("deb/apa.fr.html") +
                     " " + server_->url("deb/apa.de.html") + " " +
                     server_->url("local/latin1.html") + " " +
                     server_->url("local/roundtrip.html") + " " +
                         server_->url("local/binary.html") + " " +
                         server_->url("local/navigation.html") + " " +
                         server_->url("local/missing.html") + " 2>&1",
                     &log);
    ASSERT_TRUE(rc == 0 || rc == 8) << rc << "\n" << log << read_file(dir_.file("server.log"));
  }

  int run_example(const std::string& out, const std::string& extra = "") {
    std::string output;
    int rc = run_command(kWinnow + " run " + kSource + "/examples/warc_pipeline.yaml --input " +
                             dir_.file("warc") + " --output " + out +
                             " --output-format jsonl --overwrite " + extra,
                         &output);
    EXPECT_EQ(rc, 0) << output;
    return rc;
  }

  TempDir dir_;
  std::string site_;
  std::unique_ptr<LocalHttpServer> server_;
};

TEST_F(WarcExample, CrawledPagesComeOutAsTheirMainText) {
  std::string out = dir_.file("out");
  ASSERT_EQ(run_example(out), 0);

  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(out + "/stats.json");
  EXPECT_TRUE(bool(stats["reconciles"]));
  EXPECT_EQ(uint64_t(stats["totals"]["errors"]), 0u);
  // warcinfo, requests, metadata and the 404 page are skipped records, not documents.
  EXPECT_GT(uint64_t(stats["totals"]["skipped_records"]), 0u);

  std::map<std::string, Doc> kept = read_docs(out);
  std::map<std::string, Doc> all = kept;
  for (auto& [url, doc] : read_docs(out + "/rejected")) all[url] = doc;

  // Every HTML page wget saved from the tutorial crawl is a document, and nothing else is.
  std::set<std::string> crawled;
  for (const auto& entry : fs::recursive_directory_iterator(dir_.file("dl"))) {
    if (entry.path().extension() != ".html") continue;
    crawled.insert(server_->url(fs::relative(entry.path(), dir_.file("dl")).string()));
  }
  ASSERT_GE(crawled.size(), 10u);
  std::set<std::string> tutorial_docs;
  for (const auto& [url, doc] : all) {
    if (url.find("/py/") != std::string::npos) tutorial_docs.insert(url);
  }
  EXPECT_EQ(tutorial_docs, crawled);

  // A prose page: its main text is kept, the navigation around it is not.
  ASSERT_TRUE(kept.count(server_->url("py/tutorial/appetite.html")));
  const Doc& appetite = kept[server_->url("py/tutorial/appetite.html")];
  EXPECT_THAT(appetite.text, HasSubstr("If you do much work on computers, eventually you find"));
  EXPECT_THAT(appetite.text, HasSubstr("\n\n"));  // paragraphs apart
  EXPECT_THAT(appetite.text, Not(HasSubstr("Show Source")));
  EXPECT_THAT(appetite.text, Not(HasSubstr("<p>")));
  EXPECT_THAT(appetite.text, Not(HasSubstr("&#8217;")));  // entities decoded
  EXPECT_EQ(appetite.charset, "utf-8");
  EXPECT_EQ(appetite.language, "en");
  EXPECT_EQ(appetite.http_status, 200);

  // The example's container pass keeps what jusText alone loses inside the main content
  // (code samples, headings with a permalink) and still none of the navigation.
  ASSERT_TRUE(kept.count(server_->url("py/tutorial/controlflow.html")));
  const Doc& controlflow = kept[server_->url("py/tutorial/controlflow.html")];
  EXPECT_THAT(controlflow.text, HasSubstr(">>> for w in words:"));
  EXPECT_THAT(controlflow.text, HasSubstr("if Statements"));
  EXPECT_THAT(controlflow.text, Not(HasSubstr("Table of Contents")));
  EXPECT_THAT(controlflow.text, Not(HasSubstr("Show Source")));

  // French and German pages pick their own stop words.
  ASSERT_TRUE(kept.count(server_->url("deb/apa.fr.html")));
  EXPECT_EQ(kept[server_->url("deb/apa.fr.html")].language, "fr");
  EXPECT_THAT(kept[server_->url("deb/apa.fr.html")].text, HasSubstr("Référence Debian"));
  ASSERT_TRUE(kept.count(server_->url("deb/apa.de.html")));
  EXPECT_EQ(kept[server_->url("deb/apa.de.html")].language, "de");

  // The Latin-1 page is decoded by its <meta> and reads as its UTF-8 twin: the same text, so
  // exact_dedup keeps the first fetched (latin1, the smaller key) and drops the twin. Both are
  // apa.fr.html transliterated to Latin-1, fetched after it: fuzzy_dedup drops latin1 as its
  // near-duplicate.
  ASSERT_TRUE(all.count(server_->url("local/latin1.html")));
  ASSERT_TRUE(all.count(server_->url("local/roundtrip.html")));
  const Doc& latin1 = all[server_->url("local/latin1.html")];
  EXPECT_EQ(latin1.drop_reason, "fuzzy_dedup/fuzzy_duplicate");
  const Doc& twin = all[server_->url("local/roundtrip.html")];
  EXPECT_EQ(latin1.charset, "windows-1252");
  EXPECT_EQ(twin.charset, "utf-8");
  EXPECT_EQ(latin1.text, twin.text);
  EXPECT_EQ(twin.drop_reason, "exact_dedup/exact_duplicate");
  EXPECT_THAT(latin1.text, HasSubstr("Référence Debian"));

  // A binary served as text/html is read, decoded and dropped, never kept.
  ASSERT_TRUE(all.count(server_->url("local/binary.html")));
  EXPECT_FALSE(kept.count(server_->url("local/binary.html")));
  EXPECT_FALSE(all[server_->url("local/binary.html")].drop_reason.empty());
  // The 404 page is not a document.
  EXPECT_FALSE(all.count(server_->url("local/missing.html")));
  // A page with nothing to keep is rejected as it came, so that one can see why.
  ASSERT_TRUE(all.count(server_->url("local/navigation.html")));
  const Doc& navigation = all[server_->url("local/navigation.html")];
  EXPECT_FALSE(navigation.drop_reason.empty());  // no_text, or unknown_language first
  EXPECT_THAT(navigation.text, HasSubstr("<nav><a href=\"a.html\">Home</a>"));
}

TEST_F(WarcExample, OutputDoesNotDependOnThreadsOrBatchSize) {
  std::string a = dir_.file("a"), b = dir_.file("b");
  ASSERT_EQ(run_example(a, "--threads 4 --batch-size 1000"), 0);
  ASSERT_EQ(run_example(b, "--threads 1 --batch-size 3"), 0);
  for (const char* name : {"crawl.warc.jsonl", "pages.warc.jsonl", "rejected/pages.warc.jsonl"}) {
    EXPECT_EQ(read_file(a + "/" + name), read_file(b + "/" + name)) << name;
  }
  EXPECT_FALSE(read_file(a + "/crawl.warc.jsonl").empty());
}

// A damaged record under each error policy: skip logs it (file, byte offset) and keeps the
// records around it; fail stops with exit code 1 naming the file and offset.
TEST(WarcErrors, DamagedRecordFollowsOnError) {
  TempDir dir;
  auto record = [](const std::string& uri, const std::string& body) {
    std::string http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + body;
    return "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri +
           "\r\nContent-Type: application/http\r\nContent-Length: " + std::to_string(http.size()) +
           "\r\n\r\n" + http + "\r\n\r\n";
  };
  std::string first = record("http://a/", "<p>first</p>");
  std::string bad =
      "WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99999999999999999999"
      "\r\n\r\n";
  write_file(dir.file("in.warc"), first + bad + record("http://b/", "<p>second</p>"));
  std::string pipeline = dir.file("p.yaml");
  write_file(pipeline,
             "output:\n  format: jsonl\nstages:\n  - stage: html_extract\n"
             "    algorithm: plain\n");
  std::string output;
  std::string run = kWinnow + " run " + pipeline + " -i " + dir.file("in.warc") + " -o ";
  ASSERT_EQ(run_command(run + dir.file("skip") + " --on-error skip", &output), 0) << output;
  std::vector<std::string> kept = split_lines(read_file(dir.file("skip/in.warc.jsonl")));
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_THAT(kept[0], HasSubstr("\"text\":\"first\""));
  EXPECT_THAT(kept[1], HasSubstr("\"text\":\"second\""));
  std::string errors = read_file(dir.file("skip/errors/in.warc.jsonl"));
  EXPECT_THAT(errors, HasSubstr("\"error\":\"corrupt_warc\""));
  EXPECT_THAT(errors, HasSubstr("\"byte_offset\":" + std::to_string(first.size())));

  EXPECT_EQ(run_command(run + dir.file("fail"), &output), 1);
  EXPECT_THAT(output,
              HasSubstr(dir.file("in.warc") + ": record at byte " + std::to_string(first.size())));
}

}  // namespace
}  // namespace winnow::testing
