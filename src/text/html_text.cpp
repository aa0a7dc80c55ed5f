#include "text/html_text.h"

#include "text/html_document.h"
#include "text/python_text.h"

namespace winnow {

namespace {

class VisibleTextCounter final : public HtmlVisitor {
 public:
  size_t chars = 0;
  bool start(const HtmlElement& element) override {
    std::string_view tag = element.tag();
    return tag != "script" && tag != "style";
  }
  void end(const HtmlElement&) override {}
  void text(std::string_view text) override { chars += python_len(text); }
};

}  // namespace

size_t html_visible_text_chars(std::string_view html) {
  // HtmlDocument bounds hostile pages (nesting capped before gumbo, nodes in an arena).
  HtmlDocument document(html);
  VisibleTextCounter counter;
  document.walk(counter, kHtmlVisibleTextMaxDepth);
  return counter.chars;
}

}  // namespace winnow
