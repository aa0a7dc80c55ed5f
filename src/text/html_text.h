#pragma once
// The visible text of an HTML document, as BeautifulSoup's get_text() gives it once <script>
// and <style> elements are removed (what NeMo's HTMLBoilerplateFilter measures): every text,
// white-space and CDATA node, concatenated. Parsed with gumbo (HTML5, never fails).
#include <cstddef>
#include <string_view>

namespace winnow {

// Code points of the visible text.
size_t html_visible_text_chars(std::string_view html);

}  // namespace winnow
