#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow {
namespace {

using testing::build_stage;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::make_batch;
using testing::reasons_of;

const std::string kProse =
    "The committee met on Tuesday to discuss the plans for the new library, which had been "
    "delayed for several months because of the funding problems that the city had with it. "
    "Most of the members said that they were happy with the new design of the building.";

std::string page(const std::string& body, const std::string& head = "") {
  return "<html><head>" + head +
         "<title>t</title></head><body><ul><li><a href=/>Home</a>"
         "</li></ul>" +
         body + "<p><a href=/x>Privacy</a></p></body></html>";
}

class HtmlExtractTest : public ::testing::Test {
 protected:
  std::unique_ptr<Stage> make(const std::map<std::string, StageParams::Value>& values = {}) {
    auto stage = build_stage(html_extract_spec(), values, context_);
    EXPECT_TRUE(stage.is_ok()) << stage.status().message();
    return stage.is_ok() ? std::move(stage).value() : nullptr;
  }
  std::string error_of(const std::map<std::string, StageParams::Value>& values) {
    auto stage = build_stage(html_extract_spec(), values, context_);
    return stage.is_ok() ? std::string() : stage.status().message();
  }
  // A batch as the WARC reader leaves it: raw payloads, unchecked.
  std::unique_ptr<DocBatch> raw_batch(const std::vector<testing::TestDoc>& docs) {
    auto batch = make_batch(docs);
    for (size_t i = 0; i < batch->size(); ++i) batch->mark_text_unchecked(i);
    return batch;
  }

  // `deduplicates`: the algorithm keeps a repeated paragraph at most three times (trafilatura).
  void expect_hostile_pages_bounded(Stage& stage, bool deduplicates = false);

  ReasonTable reasons_;
  StageContext context_{reasons_, "html_extract", 0, 42};
};

TEST_F(HtmlExtractTest, ReplacesHtmlWithMainTextAndRecordsTheCharset) {
  auto stage = make({{"annotate", true}});
  std::string latin1 = page("<p>" + kProse + " Caf\xE9.</p>");
  auto batch = raw_batch({{page("<p>" + kProse + "</p>"), R"({"content_type":"text/html"})"},
                          {latin1, R"({"content_type":"text/html; charset=iso-8859-1"})"}});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_), ElementsAre("kept", "kept"));
  EXPECT_EQ(batch->text(0), kProse);
  EXPECT_EQ(batch->text(1), kProse + " Café.");
  EXPECT_TRUE(batch->text_changed(0));
  EXPECT_FALSE(batch->text_unchecked(0));
  const AnnotationColumn* charset = batch->find_annotation("charset");
  ASSERT_NE(charset, nullptr);
  EXPECT_EQ(charset->string_at(0), "utf-8");
  EXPECT_EQ(charset->string_at(1), "windows-1252");
  EXPECT_EQ(batch->find_annotation("html_extract_language")->string_at(0), "en");
}

TEST_F(HtmlExtractTest, JsonlTextIsAlreadyUtf8) {
  auto stage = make({{"algorithm", std::string("plain")}});
  // The <meta> would be wrong for text that JSON already decoded; it is ignored.
  auto batch = make_batch({{page("<p>Café</p>", "<meta charset=iso-8859-1>")}});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->text(0), "Home\n\nCafé\n\nPrivacy");
  EXPECT_EQ(batch->find_annotation("charset")->string_at(0), "utf-8");
}

TEST_F(HtmlExtractTest, DropsPagesWithNothingLeft) {
  auto stage = make();
  auto batch = raw_batch({{page("<p>Too short.</p>")},
                          {page("<p>" + kProse + "</p>")},
                          {std::string("\x7f"
                                       "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0",
                                       20) +
                           std::string(5000, '\0') + std::string(3000, '\xff')}});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_),
              ElementsAre("html_extract/no_text", "kept", "html_extract/unknown_language"));
  // A page with nothing to keep stays itself, for rejected/ to show why.
  EXPECT_EQ(batch->text(0), page("<p>Too short.</p>"));
  EXPECT_EQ(batch->text(1).find('<'), std::string_view::npos);  // the kept one is text
  auto keep_unknown = make({{"drop_unknown_language", false}});
  batch = raw_batch({{page("<p>Too short.</p>")}});
  ASSERT_TRUE(keep_unknown->process(*batch).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_), ElementsAre("html_extract/no_text"));
}

TEST_F(HtmlExtractTest, FixedLanguageAndUnknownLists) {
  auto stage = make({{"language", std::string("en")}});
  auto batch = raw_batch({{page("<p>" + kProse + "</p>")}});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->text(0), kProse);
  EXPECT_THAT(error_of({{"language", std::string("xx")}}),
              HasSubstr("parameter 'language': no stop-word list for 'xx'"));
}

TEST_F(HtmlExtractTest, HostilePagesStayBounded) {
  for (const char* parser : {"scanner", "libxml2", "gumbo"}) {
    SCOPED_TRACE(parser);
    auto stage = make({{"max_input_bytes", int64_t{1} << 20}, {"parser", std::string(parser)}});
    expect_hostile_pages_bounded(*stage);
  }
  auto trafilatura = make({{"max_input_bytes", int64_t{1} << 20},
                           {"algorithm", std::string("trafilatura")}});
  expect_hostile_pages_bounded(*trafilatura, true);
}

void HtmlExtractTest::expect_hostile_pages_bounded(Stage& stage, bool deduplicates) {
  std::string deep;
  for (int i = 0; i < 300000; ++i) deep += "<div><span>";
  deep += "<p>" + kProse + "</p>";
  std::string huge = "<html><body>";
  while (huge.size() < (50u << 20)) huge += "<p>" + kProse + "</p>\n";
  std::string formatting;
  for (int i = 0; i < 100000; ++i) formatting += "<b><i><a>x</b></i>";
  // Character references by the million, known and unknown; tags that never end.
  std::string references = "<p>";
  while (references.size() < (2u << 20)) references += "&amp;&zzzzzzzzzzzzzzzz;&#x41;&eacute";
  std::string unterminated(1u << 20, ' ');
  for (size_t i = 0; i < unterminated.size(); i += 4) unterminated.replace(i, 3, "<a ");
  auto batch = raw_batch({{deep}, {huge}, {formatting}, {references}, {unterminated}});
  auto begin = std::chrono::steady_clock::now();
  ASSERT_TRUE(stage.process(*batch).is_ok());
  // Only the first MiB of the 50 MB page is parsed.
  EXPECT_LT(batch->text(1).size(), 1u << 20);
  if (deduplicates) {
    EXPECT_TRUE(batch->text(1).starts_with(kProse + "\n\n" + kProse + "\n\n" + kProse));
    EXPECT_LT(batch->text(1).size(), 4 * kProse.size() + 10);
  } else {
    EXPECT_GT(batch->text(1).size(), 100000u);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(60));
}

TEST_F(HtmlExtractTest, AlreadyDroppedDocumentsAreLeftAlone) {
  auto stage = make();
  auto batch = raw_batch({{"<p>x</p>"}});
  batch->drop(0, reasons_.add("earlier", 0, "why"));
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(batch->text(0), "<p>x</p>");
}

TEST_F(HtmlExtractTest, ContainerAndFrequencyStopWordsAreOptIn) {
  std::string code =
      "<pre>for record in reader.records():\n    payload = decode(record.payload)\n"
      "    writer.write(json.dumps({'url': record.url, 'text': payload}))</pre>";
  std::string html = page("<div class=body><h2>Usage<a href=#u>\xC2\xB6</a></h2><p>" + kProse +
                          "</p>" + code + "<p>" + kProse + "</p></div>");
  auto nemo = make();
  auto improved = make({{"container", true}, {"stop_words", std::string("both")}});
  auto batch = raw_batch({{html}});
  auto batch2 = raw_batch({{html}});
  ASSERT_TRUE(nemo->process(*batch).is_ok());
  ASSERT_TRUE(improved->process(*batch2).is_ok());
  EXPECT_EQ(batch->text(0), kProse + "\n\n" + kProse);
  EXPECT_EQ(batch2->text(0), "Usage\xC2\xB6\n\n" + kProse +
                                 "\n\nfor record in reader.records():\npayload = "
                                 "decode(record.payload)\nwriter.write(json.dumps({'url': "
                                 "record.url, 'text': payload}))\n\n" +
                                 kProse);
}

// algorithm: trafilatura keeps the article and leaves the furniture around it; NeMo's stop-word
// filter (on by default) then drops the paragraphs with too few stop words: the heading and the
// code line. Without the filter they stay.
TEST_F(HtmlExtractTest, TrafilaturaAlgorithmKeepsTheArticle) {
  std::string html =
      page("<div class=cookie-consent><p>" + kProse + "</p></div><div class=post-content>"
           "<h1>Library plans</h1><p>" + kProse + "</p><pre>opening = 2025</pre>"
           "<div class=comments><p>" + kProse + " Agreed!</p></div></div>"
           "<footer>" + kProse + "</footer>");
  auto nemo = make({{"algorithm", std::string("trafilatura")}, {"annotate", true}});
  auto unfiltered = make({{"algorithm", std::string("trafilatura")},
                          {"required_stopword_density", 0.0}});
  auto batch = raw_batch({{html}, {page("<p><a href=/y>Contact</a></p>")}});
  auto batch2 = raw_batch({{html}});
  ASSERT_TRUE(nemo->process(*batch).is_ok());
  ASSERT_TRUE(unfiltered->process(*batch2).is_ok());
  EXPECT_THAT(reasons_of(*batch, reasons_), ElementsAre("kept", "html_extract/no_text"));
  EXPECT_EQ(batch->text(0), kProse);
  EXPECT_EQ(batch->annotation("html_extract_language", AnnotationType::kString).string_at(0),
            "en");
  EXPECT_EQ(batch2->text(0), "Library plans\n\n" + kProse + "\n\nopening = 2025");
}

TEST_F(HtmlExtractTest, ChecksParameters) {
  EXPECT_THAT(error_of({{"stop_words", std::string("wikipedia")}}),
              HasSubstr("parameter 'stop_words': must be snowball, frequency or both"));
  EXPECT_THAT(error_of({{"container_share", 0.5}}), HasSubstr("parameter 'container_share'"));
  EXPECT_THAT(error_of({{"container_max_link_density", -0.1}}),
              HasSubstr("parameter 'container_max_link_density'"));
  // The frequency lists are compiled in: no Snowball folder needed.
  EXPECT_EQ(error_of({{"stop_words", std::string("frequency")},
                      {"stopwords_dir", std::string("/nonexistent")}}),
            "");
  EXPECT_THAT(error_of({{"algorithm", std::string("magic")}}),
              HasSubstr("parameter 'algorithm': must be justext, trafilatura or plain"));
  EXPECT_THAT(error_of({{"algorithm", std::string("trafilatura")},
                        {"required_stopword_density", 1.5}}),
              HasSubstr("parameter 'required_stopword_density': must lie between 0 and 1"));
  EXPECT_THAT(error_of({{"min_extracted_size", int64_t{-1}}}),
              HasSubstr("parameter 'min_extracted_size': must be 0 or more"));
  // trafilatura without the stop-word filter needs no lists either.
  EXPECT_EQ(error_of({{"algorithm", std::string("trafilatura")},
                      {"required_stopword_density", 0.0},
                      {"stopwords_dir", std::string("/nonexistent")}}),
            "");
  EXPECT_THAT(error_of({{"algorithm", std::string("trafilatura")},
                        {"stopwords_dir", std::string("/nonexistent")}}),
              HasSubstr("parameter 'stopwords_dir': no Lingua::StopWords lists"));
  EXPECT_THAT(error_of({{"parser", std::string("html5lib")}}),
              HasSubstr("parameter 'parser': must be libxml2, scanner or gumbo; got 'html5lib'"));
  EXPECT_THAT(error_of({{"length_high", int64_t{10}}}),
              HasSubstr("parameter 'length_high': must be at least length_low"));
  EXPECT_THAT(error_of({{"stopwords_low", 1.5}}), HasSubstr("parameter 'stopwords_low'"));
  EXPECT_THAT(error_of({{"stopwords_dir", std::string("/nonexistent")}}),
              HasSubstr("parameter 'stopwords_dir': no Lingua::StopWords lists"));
  EXPECT_THAT(error_of({{"max_depth", int64_t{0}}}), HasSubstr("parameter 'max_depth'"));
  // plain needs no stop words
  EXPECT_EQ(error_of({{"algorithm", std::string("plain")},
                      {"stopwords_dir", std::string("/nonexistent")}}),
            "");
}

// Real pages of two generators (Sphinx: python3-doc; DocBook: debian-reference in three
// languages): the scanner (the default), libxml2 and gumbo split them into the same
// paragraphs, so all three give the same text, with every algorithm.
TEST_F(HtmlExtractTest, AllParsersGiveTheSameTextOnRealPages) {
  std::vector<std::string> files;
  auto add = [&](const std::string& dir, const std::string& suffix, size_t count) {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      std::string name = entry.path().string();
      if (name.size() > suffix.size() && name.ends_with(suffix)) found.push_back(name);
    }
    std::sort(found.begin(), found.end());
    ASSERT_GE(found.size(), count) << dir << " is installed by scripts/setup";
    files.insert(files.end(), found.begin(), found.begin() + static_cast<ptrdiff_t>(count));
  };
  add("/usr/share/doc/python3/html/library", ".html", 30);
  for (const char* language : {".en.html", ".de.html", ".ja.html"}) {
    add("/usr/share/debian-reference", language, 4);
  }
  std::vector<testing::TestDoc> docs;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    docs.push_back({std::string(std::istreambuf_iterator<char>(in), {})});
  }
  for (const char* algorithm : {"justext", "trafilatura", "plain"}) {
    SCOPED_TRACE(algorithm);
    auto reference = raw_batch(docs);
    ASSERT_TRUE(make({{"algorithm", std::string(algorithm)}})->process(*reference).is_ok());
    size_t kept = 0;
    for (size_t i = 0; i < docs.size(); ++i) kept += reference->kept(i);
    EXPECT_GE(kept, 30u);
    for (const char* parser : {"libxml2", "gumbo"}) {
      SCOPED_TRACE(parser);
      auto batch = raw_batch(docs);
      auto stage = make({{"algorithm", std::string(algorithm)}, {"parser", std::string(parser)}});
      ASSERT_TRUE(stage->process(*batch).is_ok());
      for (size_t i = 0; i < docs.size(); ++i) {
        ASSERT_EQ(batch->kept(i), reference->kept(i)) << files[i];
        if (reference->kept(i)) {
          EXPECT_EQ(batch->text(i), reference->text(i)) << files[i];
        }
      }
    }
  }
}

// Broken markup: real pages with one tag in twelve dropped, one in twelve followed by a stray
// start or end tag, and one page in three cut short. The scanner must still place blocks as
// libxml2 (and so lxml) does on nearly all of them.
TEST_F(HtmlExtractTest, ScannerAgreesWithLibxml2OnMangledPages) {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator("/usr/share/doc/python3/html/library")) {
    if (entry.path().extension() == ".html") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 120u);
  files.resize(120);
  const char* kStray[] = {"p", "div", "a", "b", "li", "td", "tr", "table", "span", "h2", "pre"};
  std::mt19937 rng(2026);
  std::vector<testing::TestDoc> docs;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string page(std::istreambuf_iterator<char>(in), {});
    std::string out;
    size_t i = 0;
    while (i < page.size()) {
      size_t lt = page.find('<', i);
      size_t gt = lt == std::string::npos ? lt : page.find('>', lt);
      if (gt == std::string::npos) {
        out.append(page, i);
        break;
      }
      out.append(page, i, lt - i);
      unsigned roll = rng() % 12;
      if (roll != 0) out.append(page, lt, gt + 1 - lt);  // else the tag is dropped
      if (roll == 1) out += std::string("<") + kStray[rng() % 11] + ">";
      if (roll == 2) out += std::string("</") + kStray[rng() % 11] + ">";
      i = gt + 1;
    }
    if (rng() % 3 == 0) out.resize(rng() % out.size());
    docs.push_back({out});
  }
  auto scanner_batch = raw_batch(docs);
  auto libxml2_batch = raw_batch(docs);
  ASSERT_TRUE(make()->process(*scanner_batch).is_ok());
  ASSERT_TRUE(make({{"parser", std::string("libxml2")}})->process(*libxml2_batch).is_ok());
  size_t same = 0;
  for (size_t i = 0; i < docs.size(); ++i) {
    same += scanner_batch->kept(i) == libxml2_batch->kept(i) &&
            (!scanner_batch->kept(i) || scanner_batch->text(i) == libxml2_batch->text(i));
  }
  EXPECT_GE(same, 113u) << "of " << docs.size();  // 117 when written
}

}  // namespace
}  // namespace winnow
