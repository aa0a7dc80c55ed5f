#pragma once
// All visible text of a page, block structure kept: each block-level element (p, div, li, h1,
// td...) is a paragraph, paragraphs are separated by blank lines, <br> is a line break, <pre>
// keeps its lines, other whitespace is collapsed. Not visible, so left out: head, script,
// style, template, noscript, and elements marked hidden (the hidden attribute,
// aria-hidden="true", or an inline style with display:none or visibility:hidden).
#include <string>

#include "text/html_document.h"

namespace winnow {

std::string html_plain_text(const HtmlDocument& document, size_t max_depth);

}  // namespace winnow
