#pragma once
// HtmlDocument: a page parsed by gumbo (the HTML5 parsing algorithm, tolerant of real-world
// markup) and walked without recursion. Hostile pages stay bounded:
// - nesting is capped before gumbo sees the page: gumbo's scope checks walk the stack of open
//   elements, so 100,000 nested <div>s take minutes; a light tag scanner drops start tags that
//   would nest deeper than `max_depth` (their text stays), which real pages never reach;
// - gumbo's nodes live in an arena freed in one go (its own destructor recurses once per
//   level of nesting and can overflow the stack);
// - the walk keeps its own stack, and elements deeper than its `max_depth` give text only.
#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

namespace winnow {

// An element seen during a walk; valid only inside the callback.
class HtmlElement {
 public:
  explicit HtmlElement(const void* node) : node_(node) {}
  // The lowercase tag name ("div", "h2"); empty for tags gumbo does not know.
  std::string_view tag() const;
  std::optional<std::string_view> attribute(std::string_view name) const;
  // Written as "<a .../>" in the source. HTML5 ignores the slash on non-void elements (what
  // follows lands inside), but XHTML pages mean an empty element and lxml, which jusText and
  // NeMo parse with, makes it one. Reads the source text: the page given to HtmlDocument must
  // still be alive.
  bool self_closing() const;

 private:
  const void* node_;  // a GumboNode
};

class HtmlVisitor {
 public:
  virtual ~HtmlVisitor() = default;
  // Return false to skip the element's subtree (end() is then not called for it).
  virtual bool start(const HtmlElement& element) = 0;
  virtual void end(const HtmlElement& element) = 0;
  // A text node's content, entities decoded (whitespace-only nodes included).
  virtual void text(std::string_view text) = 0;
};

// `html` with the start tags that would nest deeper than `max_depth` (as a tag scanner that
// knows void elements and implied end tags estimates it) and their end tags removed; empty
// when nothing needs removing. Exposed for tests.
std::string limit_html_nesting(std::string_view html, size_t max_depth);

class HtmlDocument {
 public:
  // `html` must be UTF-8 (gumbo's requirement; invalid bytes become U+FFFD).
  explicit HtmlDocument(std::string_view html, size_t max_depth = 1000);
  ~HtmlDocument();
  HtmlDocument(const HtmlDocument&) = delete;
  HtmlDocument& operator=(const HtmlDocument&) = delete;

  // Depth-first, in document order. Comments are not reported.
  void walk(HtmlVisitor& visitor, size_t max_depth) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace winnow
