#include "text/html_document.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace winnow
