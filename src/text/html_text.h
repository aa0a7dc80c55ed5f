#pragma once
// The visible text of an HTML document, as BeautifulSoup's get_text() gives it once <script>
// and <style> elements are removed (what NeMo's HTMLBoilerplateFilter measures): every text,
// white-space and CDATA node, concatenated. Parsed by HtmlDocument (gumbo, HTML5, never fails;
// bounded on hostile nesting).
#include <cstddef>
#include <string_view>

namespace winnow {

// Elements nested deeper than this give their text without their tag being looked at (so a
// <script> below it would count); real pages never come near it.
inline constexpr size_t kHtmlVisibleTextMaxDepth = 1000;

// Code points of the visible text.
size_t html_visible_text_chars(std::string_view html);

}  // namespace winnow
