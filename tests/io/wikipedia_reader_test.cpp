// WikipediaReader and wikitext_to_plain: a small MediaWiki dump (a redirect, a talk page, an
// empty page, nested templates, a table, refs, every kind of link, a comment, entities,
// Unicode) read as plain XML, as bzip2 made by the `bzip2` command (an independent encoder;
// two streams concatenated, as multistream dumps are), cut short and malformed; and one
// `winnow run` end to end under both on_error policies. The expected texts are derived by hand
// from NeMo Curator's WikipediaExtractor rules (mwparserfromhell's strip_code per flat section,
// section trimmed, then `__[A-Z]*__` removed, sections joined by a blank line).
#include "io/wikipedia_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "core/html_escape.h"
#include "io/wikitext_plain.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string page_xml(const std::string& title, int ns, int id, const std::string& wikitext,
                     bool redirect = false) {
  std::string out = "  <page>\n    <title>" + escape_html(title) + "</title>\n    <ns>" +
                    std::to_string(ns) + "</ns>\n    <id>" + std::to_string(id) + "</id>\n";
  if (redirect) out += "    <redirect title=\"Alpha\" />\n";
  out += "    <revision>\n      <id>" + std::to_string(id * 100) +
         "</id>\n      <model>wikitext</model>\n";
  if (wikitext.empty()) {
    out += "      <text bytes=\"0\" xml:space=\"preserve\" />\n";
  } else {
    out += "      <text bytes=\"" + std::to_string(wikitext.size()) +
           "\" xml:space=\"preserve\">" + escape_html(wikitext) + "</text>\n";
  }
  out += "    </revision>\n  </page>\n";
  return out;
}

const char* kHead =
    "<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.10/\" version=\"0.10\" "
    "xml:lang=\"en\">\n  <siteinfo>\n    <sitename>Wikipedia</sitename>\n    <namespaces>\n"
    "      <namespace key=\"0\" case=\"first-letter\" />\n      <namespace key=\"1\" "
    "case=\"first-letter\">Talk</namespace>\n    </namespaces>\n  </siteinfo>\n";
const char* kTail = "</mediawiki>\n";

const std::string kAlphaWikitext =
    "{{Infobox city|name={{lang|fr|Alpha}}|pop=5}}\n"
    "'''Alpha''' is a ''test'' [[city]] in [[Foo Land|the land of foo]].<ref name=\"a\">{{cite "
    "web|url=http://x.org}}</ref> It has &nbsp;a [http://example.com museum] and "
    "[http://example.org].<ref name=\"a\"/>\n"
    "<!-- hidden comment -->\n"
    "[[File:Alpha.jpg|thumb|The [[city]] at night]]\n"
    "__NOTOC__\n"
    "== History ==\n"
    "Founded in 1900.<br/>It grew.\n"
    "{| class=\"wikitable\"\n|-\n! Year !! Pop\n|-\n| 1900 || 10\n{|\n| nested\n|}\n|}\n"
    "* First item\n"
    "** Nested [[item]]\n"
    "=== Culture ===\n"
    "Music &amp; art: &#931; &#x3a3;. <span style=\"color:red\">Red</span> <math>x^2</math>\n"
    "See http://bare.example.com too.\n"
    "\n"
    "[[Category:Cities]]\n"
    "[[Category:Test|Sort key]]";
// Lead: the template, ref, comment and file link leave empty lines, collapsed to one blank line
// before __NOTOC__, which is removed after the section is trimmed (so its blank line stays).
const std::string kAlphaText =
    "Alpha is a test city in the land of foo. It has \u00a0a museum and .\n\n"
    "\n\n"
    "History \nFounded in 1900.It grew.\n\n First item\n Nested item"
    "\n\n"
    "Culture \nMusic & art: \u03a3 \u03a3. Red \nSee http://bare.example.com too.\n\nCities\nSort "
    "key";

const std::string kZurichWikitext =
    "== Überblick ==\n"
    "'''Zürich''' ist eine [[Stadt]] — 日本語 テキスト.{{citation needed|date=2020}}\n"
    "{{Nested|a={{b|c={{d}}}}}}Ende.\n"
    "[[Image:Z.png|left|[[Nested link]] caption]]\n"
    "[[Kategorie:Städte]]";
// The page starts with a heading: the lead section is empty, and still joined.
const std::string kZurichText =
    "\n\nÜberblick \nZürich ist eine Stadt — 日本語 テキスト.\nEnde.\n\nKategorie:Städte";

const std::string kGammaWikitext =
    "Gamma <nowiki>[[raw]]</nowiki> and <pre>{{x}}</pre> end. [[:Category:Shown]] "
    "[[Media:Sound.ogg]] done.<references/>";
const std::string kGammaText = "Gamma [[raw]] and {{x}} end. :Category:Shown  done.";

std::string small_dump() {
  return std::string(kHead) + page_xml("Alpha", 0, 10, kAlphaWikitext) +
         page_xml("Alpha redirect", 0, 11, "#REDIRECT [[Alpha]]", true) +
         page_xml("Talk:Alpha", 1, 12, "Talk about '''Alpha'''.") +
         page_xml("Zürich (city)", 0, 13, kZurichWikitext) + page_xml("Empty", 0, 14, "") +
         page_xml("Gamma", 0, 15, kGammaWikitext) + kTail;
}

struct Doc {
  std::string id, title, url, language, source_id, text;
  uint64_t row;
};
struct Read {
  std::vector<Doc> docs;
  std::vector<InputErrorRecord> errors;
  uint64_t skipped = 0, redirects = 0, other_namespaces = 0;
};

Read read_all(const std::string& path, WikipediaOptions options = {}) {
  WikipediaReader reader(path, 2, options);
  Read out;
  simdjson::dom::parser parser;
  while (auto batch = reader.next()) {
    for (size_t i = 0; i < batch->size(); ++i) {
      simdjson::dom::element record = parser.parse(std::string(batch->record(i)));
      Doc doc;
      doc.id = std::string(record["id"].get_string().value());
      doc.title = std::string(record["title"].get_string().value());
      doc.url = std::string(record["url"].get_string().value());
      doc.language = std::string(record["language"].get_string().value());
      doc.source_id = std::string(record["source_id"].get_string().value());
      doc.text = std::string(batch->text(i));
      doc.row = batch->key(i).row();
      EXPECT_EQ(batch->id(i), doc.id);
      out.docs.push_back(std::move(doc));
    }
    for (auto& e : batch->errors) out.errors.push_back(e);
    out.skipped += batch->skipped_records;
  }
  out.redirects = reader.redirects();
  out.other_namespaces = reader.other_namespaces();
  return out;
}

void expect_small_dump(const Read& read, const std::string& file_name) {
  ASSERT_EQ(read.errors.size(), 0u) << read.errors[0].message;
  ASSERT_EQ(read.docs.size(), 3u);
  EXPECT_EQ(read.skipped, 3u);  // the redirect, the talk page, the empty page
  EXPECT_EQ(read.redirects, 1u);
  EXPECT_EQ(read.other_namespaces, 1u);
  const Doc& alpha = read.docs[0];
  EXPECT_EQ(alpha.id, "10");
  EXPECT_EQ(alpha.title, "Alpha");
  EXPECT_EQ(alpha.url, "https://en.wikipedia.org/wiki/Alpha");
  EXPECT_EQ(alpha.language, "en");
  EXPECT_EQ(alpha.source_id, file_name);
  EXPECT_EQ(alpha.row, 0u);
  EXPECT_EQ(alpha.text, kAlphaText);
  const Doc& zurich = read.docs[1];
  EXPECT_EQ(zurich.id, "13");
  EXPECT_EQ(zurich.row, 3u);  // page indexes count skipped pages
  // Python: urllib.parse.quote("Zürich_(city)")
  EXPECT_EQ(zurich.url, "https://en.wikipedia.org/wiki/Z%C3%BCrich_%28city%29");
  EXPECT_EQ(zurich.text, kZurichText);
  EXPECT_EQ(read.docs[2].id, "15");
  EXPECT_EQ(read.docs[2].text, kGammaText);
}

TEST(WikitextPlain, RulesOneByOne) {
  EXPECT_EQ(wikitext_to_plain("a {{t|{{u}}|x=}} b"), "a  b");
  EXPECT_EQ(wikitext_to_plain("[[a]] [[a|b]] [[a|]] [[file:x.png|c]] [[IMAGE:y]] ."), "a b    .");
  EXPECT_EQ(wikitext_to_plain("[https://x.org/a?b=c t ''i'']"), "t i");
  EXPECT_EQ(wikitext_to_plain("[ftp:/x y] [foo://x y]"), "[ftp:/x y] [foo://x y]");
  EXPECT_EQ(wikitext_to_plain("x<ref>r</ref>y<ref name=b />z"), "xyz");
  EXPECT_EQ(wikitext_to_plain("a<gallery>\nA.jpg\n</gallery>b <sup>2</sup> <b>c</b>"), "ab 2 c");
  EXPECT_EQ(wikitext_to_plain("1 < 2 and a <b unclosed"), "1 < 2 and a <b unclosed");
  EXPECT_EQ(wikitext_to_plain("a</div>b"), "a</div>b");
  EXPECT_EQ(wikitext_to_plain("&amp; &bogus; &#0; &#x1F600;"), "& &bogus; &#0; \U0001F600");
  EXPECT_EQ(wikitext_to_plain("x ''''bold'''' y"), "x 'bold' y");
  EXPECT_EQ(wikitext_to_plain("a\n----\nb\n#one\n:two"), "a\n\nb\none\ntwo");
  EXPECT_EQ(wikitext_to_plain("top\n==A==\n\n\n\nx\n==B==\ny __TOC__"), "top\n\nA\n\nx\n\nB\ny ");
  // Another language's prefixes, as NeMo's alias tables add them.
  WikitextOptions de;
  de.extra_media_prefixes = {"Datei"};
  de.extra_category_prefixes = {"Kategorie"};
  EXPECT_EQ(wikitext_to_plain("a [[Datei:x.png|y]] [[Kategorie:Städte]]", de), "a  Städte");
  EXPECT_EQ(wikitext_to_plain("a {{unclosed"), "a {{unclosed");
  EXPECT_EQ(wikitext_to_plain("a <!-- unclosed"), "a <!-- unclosed");
  // Many unclosed openings stay text (the scans for their ends are budgeted per page, so such
  // a page costs linear time, not quadratic).
  std::string unclosed;
  for (int i = 0; i < 100000; ++i) unclosed += "[[a {{b <!-- <span>x ";
  EXPECT_EQ(wikitext_to_plain(unclosed), unclosed.substr(0, unclosed.size() - 1));
}

TEST(WikipediaReader, PlainXml) {
  TempDir dir;
  std::string path = dir.file("enwiki-test-pages-articles.xml");
  write_file(path, small_dump());
  expect_small_dump(read_all(path), "enwiki-test-pages-articles.xml");
}

TEST(WikipediaReader, Bzip2MultistreamFromTheBzip2Command) {
  TempDir dir;
  std::string dump = small_dump();
  // Two bzip2 streams cut at a page boundary, as a multistream dump is.
  size_t cut = dump.find("  <page>", dump.find("Talk:Alpha"));
  ASSERT_NE(cut, std::string::npos);
  write_file(dir.file("a.xml"), dump.substr(0, cut));
  write_file(dir.file("b.xml"), dump.substr(cut));
  std::string path = dir.file("enwiki-test-pages-articles-multistream.xml.bz2");
  ASSERT_EQ(run_command("bzip2 -c " + dir.file("a.xml") + " > " + path + " && bzip2 -c " +
                        dir.file("b.xml") + " >> " + path),
            0);
  EXPECT_EQ(read_file(path).substr(0, 3), "BZh");
  expect_small_dump(read_all(path), "enwiki-test-pages-articles-multistream.xml.bz2");
}

// A larger dump of numbered pages, for the truncated and malformed cases.
std::string numbered_dump(int pages) {
  std::string dump = kHead;
  for (int i = 1; i <= pages; ++i) {
    std::string text;
    for (int k = 0; k < 40; ++k)
      text += "'''Page " + std::to_string(i) + "''' line " + std::to_string(k) +
              " with a [[link|word]] and {{tmpl}} " + std::to_string(i * 7919 % 1000003) + "\n";
    dump += page_xml("Page " + std::to_string(i), 0, i, text);
  }
  return dump + kTail;
}

TEST(WikipediaReader, TruncatedBzip2KeepsWholePagesAndNamesThePage) {
  TempDir dir;
  write_file(dir.file("big.xml"), numbered_dump(400));
  // -1: 100 kB blocks, so the blocks before the cut decode.
  ASSERT_EQ(run_command("bzip2 -1 -c " + dir.file("big.xml") + " > " + dir.file("whole.bz2")), 0);
  std::string whole = read_file(dir.file("whole.bz2"));
  std::string path = dir.file("cut.xml.bz2");
  write_file(path, whole.substr(0, whole.size() * 2 / 3));
  Read read = read_all(path);
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kTruncatedCompressed);
  EXPECT_THAT(read.errors[0].message, HasSubstr(path));
  EXPECT_GT(read.docs.size(), 50u);
  EXPECT_LT(read.docs.size(), 400u);
  for (size_t i = 0; i < read.docs.size(); ++i) {
    EXPECT_EQ(read.docs[i].id, std::to_string(i + 1));
    EXPECT_THAT(read.docs[i].text, HasSubstr("Page " + std::to_string(i + 1) + " line 39"));
  }
  // The error names the last page read whole: the last kept.
  EXPECT_THAT(read.errors[0].message,
              HasSubstr("after page " + std::to_string(read.docs.size()) + " (title 'Page " +
                        std::to_string(read.docs.size()) + "'), the last read whole"));
}

TEST(WikipediaReader, MalformedXmlNamesFileLineAndPage) {
  TempDir dir;
  std::string dump = small_dump();
  size_t at = dump.find("<title>Zürich");
  ASSERT_NE(at, std::string::npos);
  dump.replace(dump.find("</title>", at), 8, "</titel>");
  std::string path = dir.file("bad.xml");
  write_file(path, dump);
  uint64_t line = 1 + std::count(dump.begin(), dump.begin() + dump.find("</titel>"), '\n');
  Read read = read_all(path);
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kMalformedXml);
  EXPECT_EQ(read.errors[0].line, line);
  EXPECT_THAT(read.errors[0].message, HasSubstr(path));
  EXPECT_THAT(read.errors[0].message, HasSubstr("line " + std::to_string(line)));
  // libxml2 parses ahead of the pages handed out: the error names the last page read whole,
  // one before the damaged page 4 (Zürich), and the pages read whole are kept.
  EXPECT_THAT(read.errors[0].message, HasSubstr("Opening and ending tag mismatch"));
  EXPECT_THAT(read.errors[0].message, HasSubstr(", the last read whole"));
  ASSERT_GE(read.docs.size(), 1u);
  EXPECT_EQ(read.docs[0].text, kAlphaText);
  for (const Doc& doc : read.docs) EXPECT_NE(doc.id, "13");
}

TEST(WikipediaReader, OtherNamespacesWhenAsked) {
  TempDir dir;
  std::string path = dir.file("d.xml");
  write_file(path, small_dump());
  WikipediaOptions options;
  options.namespaces = {1};
  options.language = "de";
  Read read = read_all(path, options);
  ASSERT_EQ(read.docs.size(), 1u);
  EXPECT_EQ(read.docs[0].title, "Talk:Alpha");
  EXPECT_EQ(read.docs[0].text, "Talk about Alpha.");
  EXPECT_EQ(read.docs[0].url, "https://de.wikipedia.org/wiki/Talk%3AAlpha");
  EXPECT_EQ(read.other_namespaces, 5u);
}

TEST(WikipediaReader, EmptyAndMissingFiles) {
  TempDir dir;
  write_file(dir.file("empty.xml"), "");
  Read read = read_all(dir.file("empty.xml"));
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kEmptyFile);
  read = read_all(dir.file("missing.xml"));
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_EQ(read.errors[0].kind, InputError::kUnreadableFile);
}

TEST(WikipediaReader, WinnowRunEndToEndUnderBothPolicies) {
  TempDir dir;
  fs::create_directories(dir.file("in"));
  write_file(dir.file("good.xml"), small_dump());
  ASSERT_EQ(run_command("bzip2 -c " + dir.file("good.xml") + " > " +
                        dir.file("in/enwiki-pages-articles1.xml.bz2")),
            0);
  std::string bad = small_dump();
  bad.replace(bad.find("</ns>"), 5, "</nss>");
  write_file(dir.file("in/bad.xml"), bad);
  write_file(dir.file("skip.yaml"), "input: {format: wikipedia}\noutput: {format: jsonl}\non_error: skip\n");
  std::string out;
  ASSERT_EQ(winnow("run " + dir.file("skip.yaml") + " -i " + dir.file("in") + " -o " +
                       dir.file("out") + " --no-progress",
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("documents 4 = kept 3 + dropped 0 + errors 1")) << out;
  std::string errors = read_file(dir.file("out/errors/bad.xml.jsonl"));
  EXPECT_THAT(errors, HasSubstr("\"error\":\"malformed_xml\""));
  EXPECT_THAT(errors, HasSubstr(dir.file("in/bad.xml")));
  std::string kept = read_file(dir.file("out/enwiki-pages-articles1.xml.jsonl"));
  std::vector<std::string> lines = split_lines(kept);
  ASSERT_EQ(lines.size(), 3u) << kept;
  simdjson::dom::parser parser;
  simdjson::dom::element first = parser.parse(lines[0]);
  EXPECT_EQ(std::string(first["id"].get_string().value()), "10");
  EXPECT_EQ(std::string(first["text"].get_string().value()), kAlphaText);
  EXPECT_EQ(std::string(first["source_id"].get_string().value()), "enwiki-pages-articles1.xml.bz2");

  write_file(dir.file("fail.yaml"), "input: {format: wikipedia}\non_error: fail\n");
  int rc = winnow("run " + dir.file("fail.yaml") + " -i " + dir.file("in/bad.xml") + " -o " +
                      dir.file("fail") + " --no-progress",
                  &out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_THAT(out, HasSubstr(dir.file("in/bad.xml")));
  EXPECT_THAT(out, HasSubstr("on_error: fail"));
}

}  // namespace
}  // namespace winnow::testing
