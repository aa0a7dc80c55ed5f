#pragma once
// TrafilaturaPage: a parsed page as the trafilatura-class extractor (trafilatura.h) judges it,
// built in one walk of an HtmlDocument: the elements that survive trafilatura_rules.h (in
// document order, so an element's subtree is the index range [index, end)) with the text and
// link totals of their subtrees, and the page's text blocks (paragraphs, headings, list items,
// table cells, code, quotes, loose text), each a block-level element's text cut at block tags
// and <br>.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "text/html_document.h"

namespace winnow {

enum class TrafilaturaBlockKind : uint8_t {
  kText,       // loose text in a <div>, <section>, <body>...
  kParagraph,  // <p>
  kHeading,    // <h1>..<h6>
  kListItem,   // <li>, <dt>, <dd>
  kCell,       // <td>, <th>, <caption>
  kCode,       // <pre>
  kQuote,      // <blockquote>
};

enum class TrafilaturaContainer : uint8_t { kNone, kDiv, kList, kTable };

// Text and links of a block or of an element's whole subtree.
struct TrafilaturaTextTotals {
  size_t chars = 0;       // code points of the whitespace-normalised text
  size_t link_chars = 0;  // of which inside <a>
  uint32_t links = 0;     // links with text
  uint32_t short_links = 0;  // of which under 10 code points

  void add(const TrafilaturaTextTotals& other) {
    chars += other.chars;
    link_chars += other.link_chars;
    links += other.links;
    short_links += other.short_links;
  }
};

struct TrafilaturaElement {
  uint32_t parent = 0;
  uint32_t end = 0;       // one past the last element of the subtree
  uint32_t children = 0;  // child elements
  uint8_t candidate = 0;  // TrafilaturaElementRule::candidate
  bool boilerplate = false;
  TrafilaturaContainer container = TrafilaturaContainer::kNone;
  TrafilaturaTextTotals totals;  // the whole subtree's
};

struct TrafilaturaBlock {
  std::string text;  // whitespace normalised and trimmed
  uint32_t element = 0;  // the innermost element open where it starts
  TrafilaturaBlockKind kind = TrafilaturaBlockKind::kText;
  TrafilaturaTextTotals totals;
};

struct TrafilaturaPage {
  std::vector<TrafilaturaElement> elements;  // [0] is the document itself
  std::vector<TrafilaturaBlock> blocks;      // in document order
};

TrafilaturaPage trafilatura_page(const HtmlDocument& document, size_t max_depth);

}  // namespace winnow
