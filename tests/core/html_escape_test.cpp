#include "core/html_escape.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

TEST(HtmlEscape, EscapesTheFourCharactersHtmlNeeds) {
  EXPECT_EQ(escape_html("a<b>&\"c\""), "a&lt;b&gt;&amp;&quot;c&quot;");
}

TEST(HtmlEscape, LeavesEverythingElseAlone) {
  EXPECT_EQ(escape_html(""), "");
  EXPECT_EQ(escape_html("it's caf\xc3\xa9 / 100%"), "it's caf\xc3\xa9 / 100%");
  EXPECT_EQ(escape_html("&amp;"), "&amp;amp;");  // not idempotent: escape once
}

}  // namespace
}  // namespace winnow
