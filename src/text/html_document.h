#pragma once
// HtmlDocument: a page parsed by gumbo (the HTML5 parsing algorithm, tolerant of real-world
// markup) and walked without recursion. Hostile pages stay bounded: gumbo's nodes live in an
// arena freed in one go (gumbo's own destructor recurses once per level of nesting and can
// overflow the stack on deeply nested input), the walk keeps its own stack, and elements
// nested deeper than `max_depth` are walked for their text only.
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

class HtmlDocument {
 public:
  // `html` must be UTF-8 (gumbo's requirement; invalid bytes become U+FFFD).
  explicit HtmlDocument(std::string_view html);
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
