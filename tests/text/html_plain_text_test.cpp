#include "text/html_plain_text.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

std::string plain(const std::string& html) {
  HtmlDocument document(html);
  return html_plain_text(document, 1000);
}

TEST(HtmlPlainText, VisibleTextWithBlocksAsParagraphs) {
  EXPECT_EQ(plain("<html><head><title>T</title><style>p{}</style></head><body>"
                  "<h1>Title</h1><p>One  <b>two</b>\n three &lt;x&gt; &eacute;</p>"
                  "<ul><li>a</li><li>b<br>c</li></ul><script>var x = 1;</script>"
                  "<template><p>never</p></template><noscript>no js</noscript>"
                  "<div hidden>secret</div><div style=\"display: none\">gone</div>"
                  "<span aria-hidden=\"true\">icon</span>tail</body></html>"),
            "Title\n\nOne two three <x> é\n\na\n\nb\nc\n\ntail");
}

TEST(HtmlPlainText, PreKeepsItsLines) {
  EXPECT_EQ(plain("<p>before</p><pre>line 1\n  line   2\n\nline 3</pre>"),
            "before\n\nline 1\nline 2\nline 3");
}

TEST(HtmlPlainText, EmptyAndBrokenInput) {
  EXPECT_EQ(plain(""), "");
  EXPECT_EQ(plain("<<<>>><p"), "<<<>>>");
  EXPECT_EQ(plain("</div></p>text"), "text");
}

}  // namespace
}  // namespace winnow
