#pragma once
// The two parsers behind HtmlDocument (html_document.h); internal to src/text/.
#include <memory>
#include <optional>
#include <string_view>

#include "text/html_document.h"

namespace winnow::html_backends {

// gumbo (html_gumbo.cpp): a tree in an arena, walked with an explicit stack.
class GumboTree;
struct GumboTreeDeleter {
  void operator()(GumboTree* tree) const;
};
using GumboTreePtr = std::unique_ptr<GumboTree, GumboTreeDeleter>;
GumboTreePtr parse_with_gumbo(std::string_view html);
void walk_gumbo(const GumboTree& tree, HtmlVisitor& visitor, size_t max_depth);
std::string_view gumbo_tag(const void* node);
std::optional<std::string_view> gumbo_attribute(const void* node, std::string_view name);
bool gumbo_self_closing(const void* node);

// libxml2 (html_libxml2.cpp): parses `html` while it reports the events; no tree.
void walk_libxml2(std::string_view html, HtmlVisitor& visitor, size_t max_depth);

}  // namespace winnow::html_backends
