#include "text/html_document.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace winnow {
namespace {

class Recorder final : public HtmlVisitor {
 public:
  std::string events;
  bool start(const HtmlElement& e) override {
    events += "<" + std::string(e.tag());
    if (auto id = e.attribute("ID")) events += "#" + std::string(*id);
    events += ">";
    return e.tag() != "aside";
  }
  void end(const HtmlElement& e) override { events += "</" + std::string(e.tag()) + ">"; }
  void text(std::string_view t) override { events += std::string(t); }
};

TEST(HtmlDocument, WalksInDocumentOrderAndSkipsWhenAsked) {
  HtmlDocument doc("<p id=x>a &amp; b<aside>skipped</aside><!-- c -->d");
  Recorder r;
  doc.walk(r, 1000);
  // <aside> closes the <p> (HTML5 parsing); its subtree is skipped, so no </aside>.
  EXPECT_EQ(r.events, "<html><head></head><body><p#x>a & b</p><aside>d</body></html>");
}

TEST(HtmlDocument, ElementsBeyondTheWalkDepthGiveTextOnly) {
  HtmlDocument doc("<div><div><div><b>deep</b></div></div></div>");
  Recorder r;
  doc.walk(r, 4);  // html, body, div, div
  EXPECT_EQ(r.events, "<html><head></head><body><div><div>deep</div></div></body></html>");
}

TEST(HtmlDocument, NestingLimitDropsOnlyTheDeepTags) {
  EXPECT_EQ(limit_html_nesting("<div><p>a<p>b</div><ul><li>x<li>y</ul>", 3), "");
  EXPECT_EQ(limit_html_nesting("<a><b><c>x</c></b></a>", 2), "<a><b>x</b></a>");
  // Void elements, self-closing tags, comments and script text do not nest.
  std::string flat =
      "<div><br><img src=x><x/><!-- <div><div> --><script>'<div><div>'</script>"
      "</div>";
  EXPECT_EQ(limit_html_nesting(flat, 1), "");
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "<div><span>";
  deep += "text";
  std::string limited = limit_html_nesting(deep, 100);
  EXPECT_EQ(limited.substr(limited.size() - 4), "text");
  EXPECT_EQ(limited.size(), 50 * std::string("<div><span>").size() + 4);
}

TEST(HtmlDocument, DeeplyNestedPagesParseQuickly) {
  std::string deep;
  for (int i = 0; i < 200000; ++i) deep += "<div><span>";
  deep += "<p>end</p>";
  HtmlDocument doc(deep, 1000);
  Recorder r;
  doc.walk(r, 100000);
  EXPECT_NE(r.events.find("end"), std::string::npos);
}

// libxml2 (lxml's parser, and so jusText's): the same walk contract, lxml's tree shapes.
TEST(HtmlDocumentLibxml2, WalksInDocumentOrderAndSkipsWhenAsked) {
  std::string html = "<p id=x>a &amp; b<aside>skipped<b>too</b></aside><!-- c -->d";
  HtmlDocument doc(html, 1000, HtmlParser::kLibxml2);
  Recorder r;
  doc.walk(r, 1000);
  // Text split at the entity comes as one call; libxml2 does not know <aside> and keeps it
  // inside the <p>; its subtree is skipped, so no </aside>.
  EXPECT_EQ(r.events, "<html><body><p#x>a & b<aside>d</p></body></html>");
}

TEST(HtmlDocumentLibxml2, TreeShapesAreLxmls) {
  auto events = [](const std::string& html) {
    HtmlDocument doc(html, 1000, HtmlParser::kLibxml2);
    Recorder r;
    doc.walk(r, 1000);
    return r.events;
  };
  // Each expectation is the tree lxml.html builds from the same page (checked with
  // python3-lxml). An XHTML self-closed anchor is empty; implied end tags close <p> and <li>.
  EXPECT_EQ(events("<body><a id='s'/>text<p>one<p>two<ul><li>x<li>y</ul>"),
            "<html><body><a#s></a>text<p>one</p><p>two</p><ul><li>x</li><li>y</li></ul>"
            "</body></html>");
  // Loose text before any element gets an implied <p>; void elements close at once.
  EXPECT_EQ(events("hello<br>world"), "<html><body><p>hello<br></br>world</p></body></html>");
  // A stray end tag is dropped; the head's elements are reported like any other.
  EXPECT_EQ(events("<title>T</title><div>a</span>b</div>"),
            "<html><head><title>T</title></head><body><div>ab</div></body></html>");
}

TEST(HtmlDocumentLibxml2, AttributesWithoutValuesAndTheUtf8IsKept) {
  struct Hidden final : HtmlVisitor {
    std::string seen;
    bool start(const HtmlElement& e) override {
      if (e.tag() == "div") {
        seen += e.attribute("hidden") ? "hidden=[" + std::string(*e.attribute("hidden")) + "]"
                                      : "visible";
        EXPECT_FALSE(e.self_closing());
      }
      return true;
    }
    void end(const HtmlElement& e) override { EXPECT_FALSE(e.attribute("hidden")); }
    void text(std::string_view t) override { seen += std::string(t); }
  } visitor;
  // The page was decoded already: its <meta charset> must not make libxml2 re-decode it.
  std::string html =
      "<meta charset=iso-8859-1><div hidden>Caf\xC3\xA9 \xE2\x80\x99</div><div>x</div>";
  HtmlDocument doc(html, 1000, HtmlParser::kLibxml2);
  doc.walk(visitor, 1000);
  EXPECT_EQ(visitor.seen, "hidden=[]Caf\xC3\xA9 \xE2\x80\x99visiblex");
}

TEST(HtmlDocumentLibxml2, AnEmptyPageHasNoEvents) {
  for (HtmlParser parser : {HtmlParser::kLibxml2, HtmlParser::kGumbo, HtmlParser::kScanner}) {
    HtmlDocument doc("", 1000, parser);
    Recorder r;
    doc.walk(r, 1000);
    if (parser == HtmlParser::kGumbo) {
      EXPECT_EQ(r.events, "<html><head></head><body></body></html>");  // HTML5 always has them
    } else {
      EXPECT_EQ(r.events, "") << html_parser_name(parser);
    }
  }
}

TEST(HtmlDocumentLibxml2, ElementsBeyondTheWalkDepthGiveTextOnly) {
  std::string html = "<div><div><div><b>deep</b></div></div></div>";
  HtmlDocument doc(html, 1000, HtmlParser::kLibxml2);
  Recorder r;
  doc.walk(r, 4);  // html, body, div, div
  EXPECT_EQ(r.events, "<html><body><div><div>deep</div></div></body></html>");
}

TEST(HtmlDocumentLibxml2, AVisitorsExceptionComesOutAfterTheParserStops) {
  struct Thrower final : HtmlVisitor {
    int starts = 0;
    bool start(const HtmlElement&) override {
      if (++starts == 3) throw std::runtime_error("visitor failed");
      return true;
    }
    void end(const HtmlElement&) override {}
    void text(std::string_view) override {}
  } visitor;
  std::string html = "<div><p>a</p><p>b</p><p>c</p></div>";
  HtmlDocument doc(html, 1000, HtmlParser::kLibxml2);
  EXPECT_THROW(doc.walk(visitor, 1000), std::runtime_error);
  EXPECT_EQ(visitor.starts, 3);
}

TEST(HtmlDocumentLibxml2, DeeplyNestedPagesParseQuickly) {
  std::string deep;
  for (int i = 0; i < 200000; ++i) deep += "<div><span>";
  deep += "<p>end</p>";
  for (int i = 0; i < 100000; ++i) deep += "</i>";  // stray end tags against a deep stack
  HtmlDocument doc(deep, 1000, HtmlParser::kLibxml2);
  Recorder r;
  doc.walk(r, 100000);
  EXPECT_NE(r.events.find("end"), std::string::npos);
}

// The scanner: HTML5 tokenisation, the tree rules that place blocks (checked against libxml2's
// tree, which lxml.html builds the same way, on the shapes below).
std::string scanned(const std::string& html, size_t max_depth = 1000) {
  HtmlDocument doc(html, max_depth, HtmlParser::kScanner);
  Recorder r;
  doc.walk(r, 100000);
  return r.events;
}

TEST(HtmlDocumentScanner, TreeShapesAreLibxml2s) {
  for (const std::string html :
       {"<body><a id='s'/>text<p>one<p>two<ul><li>x<li>y</ul>", "hello<br>world",
        "<title>T</title><div>a</span>b</div>",
        "<p id=x>a &amp; b<aside>skipped<b>too</b></aside>d",
        "<table><tr><td>a<td>b<tr><td>c</table><dl><dt>t<dd>d<dt>u</dl>"}) {
    HtmlDocument lib(html, 1000, HtmlParser::kLibxml2);
    Recorder expected;
    lib.walk(expected, 1000);
    EXPECT_EQ(scanned(html), expected.events) << html;
  }
}

TEST(HtmlDocumentScanner, TokenisesLikeHtml5) {
  // Comments (also "<!-->"), doctype, processing instructions and CDATA are not text.
  EXPECT_EQ(scanned("<!doctype html><p>a<!-- <p>x --><!-->b<?php x ?><![CDATA[y]]>c"),
            "<html><body><p>abc</p></body></html>");
  // '>' inside a quoted attribute value; unquoted values; a value's references decoded.
  struct Attributes final : HtmlVisitor {
    std::string seen;
    bool start(const HtmlElement& e) override {
      if (e.tag() == "a") {
        seen += std::string(e.attribute("title").value_or("-")) + "|" +
                std::string(e.attribute("HREF").value_or("-")) + "|" +
                (e.attribute("hidden") ? "hidden" : "shown");
      }
      return true;
    }
    void end(const HtmlElement&) override {}
    void text(std::string_view t) override { seen += "[" + std::string(t) + "]"; }
  } a;
  std::string html = "<p><a title=\"x > y &amp; z\" href=/a/b hidden>link</a>";
  HtmlDocument(html, 1000, HtmlParser::kScanner).walk(a, 1000);
  EXPECT_EQ(a.seen, "x > y & z|/a/b|hidden[link]");
  // Script and style are raw text to their end tag (any case). <title> is not: libxml2
  // parses its content as markup, so an unclosed <title> holds the rest of the page as
  // elements (lxml.html builds exactly this tree), where HTML5 would make it all title text.
  EXPECT_EQ(
      scanned("<script>if (a<b) x='</p>'</SCRIPT ><p>t&lt;u</p><textarea>&lt;b&gt;</textarea>"),
      "<html><head><script>if (a<b) x='</p>'</script></head><body><p>t<u</p>"
      "<textarea><b></textarea></body></html>");
  EXPECT_EQ(scanned("<title>T<p>x"), "<html><head><title>T<p>x</p></title></head></html>");
  // References: named (with or without ';'), numeric, invalid, unknown; a lone '<' is text.
  EXPECT_EQ(scanned("<p>&copy &eacute;&#233;&#xE9;&#0;&#x110000;&bogus; a < b &#"),
            "<html><body><p>\xC2\xA9 \xC3\xA9\xC3\xA9\xC3\xA9\xEF\xBF\xBD\xEF\xBF\xBD"
            "&bogus; a < b &#</p></body></html>");
  // "<x/>" is empty, as libxml2 makes it; "<script/>" has no raw text after it.
  EXPECT_EQ(scanned("<body><div/>a<script/>b"),
            "<html><body><div></div>a<script></script>b</body></html>");
  // A tag cut off by the end of the page is dropped.
  EXPECT_EQ(scanned("<p>a<b title=\"x"), "<html><body><p>a</p></body></html>");
}

TEST(HtmlDocumentScanner, HeadContentBeforeTheBodyIsInAnImpliedHead) {
  EXPECT_EQ(scanned("<meta charset=utf-8><title>T</title><link rel=x>  <div>a</div>"),
            "<html><head><meta></meta><title>T</title><link></link></head><body><div>a</div>"
            "</body></html>");
  // Loose text after the head opens the body inside an implied <p>.
  EXPECT_EQ(scanned("<html><head><title>T</title></head>text<p>x"),
            "<html><head><title>T</title></head><body><p>text</p><p>x</p></body></html>");
}

TEST(HtmlDocumentScanner, NestingIsCappedAndStrayEndTagsCostNothing) {
  // Beyond max_depth start tags are dropped with their end tags; their text stays.
  EXPECT_EQ(scanned("<div><div><div><b>deep</b></div>after</div>", 4),
            "<html><body><div><div>deep</div>after</div></body></html>");
  std::string deep;
  for (int i = 0; i < 200000; ++i) deep += "<div><span>";
  deep += "<p>end</p>";
  for (int i = 0; i < 200000; ++i) deep += "</i></section>";
  std::string events = scanned(deep);
  EXPECT_NE(events.find("end"), std::string::npos);
}

}  // namespace
}  // namespace winnow
