#pragma once
// HtmlDocument: a page parsed by one of two real parsers and walked as start/text/end events,
// without recursion.
// - libxml2's HTML parser (HtmlParser::kLibxml2), driven by SAX callbacks: no tree is built,
//   the page is parsed while it is walked, about four times faster than gumbo here. It is the
//   parser lxml wraps, so it splits a page into the same elements as jusText, and therefore
//   NeMo Curator, see it (implied <p> around loose body text, "<a id=x/>" empty, HTML4
//   auto-closing rules).
// - gumbo (HtmlParser::kGumbo): the HTML5 parsing algorithm, as a browser builds the tree.
// Hostile pages stay bounded with either:
// - nesting is capped before the parser sees the page: both parsers' auto-close checks walk
//   the stack of open elements, so 100,000 nested <div>s take minutes; a light tag scanner
//   drops start tags that would nest deeper than `max_depth` (their text stays), which real
//   pages never reach;
// - gumbo's nodes live in an arena freed in one go (its own destructor recurses once per
//   level of nesting and can overflow the stack); libxml2 keeps no tree at all;
// - the walk keeps its own stack, and elements deeper than its `max_depth` give text only.
#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

namespace winnow {

enum class HtmlParser { kLibxml2, kGumbo, kScanner };

// "libxml2", "gumbo" or "scanner"; nullopt for anything else.
std::optional<HtmlParser> parse_html_parser_name(std::string_view name);
std::string_view html_parser_name(HtmlParser parser);

// An attribute as the scanner (HtmlParser::kScanner) found it, its value's entities decoded.
struct HtmlAttribute {
  std::string_view name;  // as written (compared without regard to case)
  std::string_view value;
};

// An element seen during a walk; valid only inside the callback. Attributes are known in
// start() only (end() sees the tag).
class HtmlElement {
 public:
  static HtmlElement from_gumbo(const void* node) { return HtmlElement(node, {}); }
  // `attributes`: libxml2's SAX list (name, value, ..., null; a value may be null).
  static HtmlElement from_libxml2(std::string_view tag, const unsigned char* const* attributes) {
    HtmlElement e(nullptr, tag);
    e.xml_attributes_ = attributes;
    return e;
  }
  static HtmlElement from_scanner(std::string_view tag, const HtmlAttribute* attributes,
                                  size_t count) {
    HtmlElement e(nullptr, tag);
    e.scanned_attributes_ = attributes;
    e.scanned_count_ = count;
    return e;
  }

  // The lowercase tag name ("div", "h2"). Empty for tags gumbo does not know; libxml2 and the
  // scanner give unknown tags their (lowercased) name.
  std::string_view tag() const;
  std::optional<std::string_view> attribute(std::string_view name) const;
  // Written as "<a .../>" in the source, for gumbo's tree: HTML5 ignores the slash on
  // non-void elements (what follows lands inside), but XHTML pages mean an empty element and
  // lxml, which jusText and NeMo parse with, makes it one. Reads the source text: the page
  // given to HtmlDocument must still be alive. Always false for libxml2 and the scanner,
  // which have already made such an element empty, as lxml does.
  bool self_closing() const;

 private:
  HtmlElement(const void* gumbo_node, std::string_view tag) : gumbo_node_(gumbo_node), tag_(tag) {}

  const void* gumbo_node_;  // a GumboNode, or null
  std::string_view tag_;    // libxml2, scanner
  const unsigned char* const* xml_attributes_ = nullptr;
  const HtmlAttribute* scanned_attributes_ = nullptr;
  size_t scanned_count_ = 0;
};

class HtmlVisitor {
 public:
  virtual ~HtmlVisitor() = default;
  // Return false to skip the element's subtree (end() is then not called for it).
  virtual bool start(const HtmlElement& element) = 0;
  virtual void end(const HtmlElement& element) = 0;
  // A text node's content, entities decoded (whitespace-only nodes included); adjacent text
  // comes as one call.
  virtual void text(std::string_view text) = 0;
};

// `html` with the start tags that would nest deeper than `max_depth` (as a tag scanner that
// knows void elements and implied end tags estimates it) and their end tags removed; empty
// when nothing needs removing. Exposed for tests.
std::string limit_html_nesting(std::string_view html, size_t max_depth);

class HtmlDocument {
 public:
  // `html` must be UTF-8 and outlive the document (invalid bytes become U+FFFD with gumbo;
  // libxml2 is told the page is UTF-8 and ignores its <meta charset>, since the bytes were
  // already decoded).
  explicit HtmlDocument(std::string_view html, size_t max_depth = 1000,
                        HtmlParser parser = HtmlParser::kGumbo);
  ~HtmlDocument();
  HtmlDocument(const HtmlDocument&) = delete;
  HtmlDocument& operator=(const HtmlDocument&) = delete;

  // Depth-first, in document order. Comments are not reported. With libxml2 each walk
  // parses the page again.
  void walk(HtmlVisitor& visitor, size_t max_depth) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace winnow
