#pragma once
// What the trafilatura-class extractor (trafilatura.h) makes of one element from its tag and
// attributes alone, before any text is counted. The rules follow trafilatura's documented
// approach (tags that never hold content are cut out; class, id and role names of page
// furniture mark boilerplate; class, id and tag names of article bodies mark candidates for the
// main content, from the surest to the vaguest), written from its rules, not from its code.
#include <cstdint>

#include "text/html_document.h"

namespace winnow {

struct TrafilaturaElementRule {
  // Never content (scripts, forms' controls, navigation, asides, footers, media, hidden
  // elements): skipped with everything inside.
  bool removed = false;
  // Its class, id or role names page furniture (menus, sharing rows, comment sections, cookie
  // banners, related links, sidebars, advertising). Its text is left out unless leaving it out
  // would remove nearly all of the container's text (trafilatura's over-pruning guard).
  bool boilerplate = false;
  // 1..5 when the element looks like the main content's container, 1 the surest (an
  // article-body class) to 5 the vaguest (<main>, a "main..." class); 0 otherwise.
  uint8_t candidate = 0;
};

TrafilaturaElementRule classify_trafilatura_element(const HtmlElement& element);

// Exposed for tests: whether a lowercased class or id value names page furniture.
bool names_boilerplate(std::string_view lowered_value);

}  // namespace winnow
