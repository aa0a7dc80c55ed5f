#include "text/html_text.h"

#include <gumbo.h>

#include <vector>

#include "text/python_text.h"

namespace winnow {

size_t html_visible_text_chars(std::string_view html) {
  GumboOutput* output = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  size_t chars = 0;
  std::vector<const GumboNode*> stack = {output->root};
  while (!stack.empty()) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    switch (node->type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_CDATA:
        chars += python_len(node->v.text.text);
        break;
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE: {
        GumboTag tag = node->v.element.tag;
        if (tag == GUMBO_TAG_SCRIPT || tag == GUMBO_TAG_STYLE) break;
        const GumboVector& children = node->v.element.children;
        for (unsigned i = children.length; i-- > 0;)
          stack.push_back(static_cast<const GumboNode*>(children.data[i]));
        break;
      }
      default:
        break;  // comments and the document node's doctype are not text
    }
  }
  gumbo_destroy_output(&kGumboDefaultOptions, output);
  return chars;
}

}  // namespace winnow
