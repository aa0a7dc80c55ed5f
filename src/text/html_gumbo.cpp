// HtmlDocument's gumbo backend: the HTML5 tree, its nodes in an arena, walked with an
// explicit stack.
#include <gumbo.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <vector>

#include "core/ascii.h"
#include "text/html_parser_backends.h"

namespace winnow::html_backends {

namespace {

// Bump allocation for gumbo: one free at the end instead of a recursive tree destructor.
// Gumbo grows its buffers by doubling, so the waste is bounded by a small factor.
class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    for (char* block : blocks_) std::free(block);
  }
  void* allocate(size_t size) {
    size = (size + 15) & ~size_t{15};
    if (size > left_) {
      size_t block = std::max(size, next_block_);
      next_block_ = std::min<size_t>(next_block_ * 2, 16 << 20);
      char* memory = static_cast<char*>(std::malloc(block));
      if (!memory) throw std::bad_alloc();
      blocks_.push_back(memory);
      cursor_ = memory;
      left_ = block;
    }
    void* result = cursor_;
    cursor_ += size;
    left_ -= size;
    return result;
  }

 private:
  std::vector<char*> blocks_;
  char* cursor_ = nullptr;
  size_t left_ = 0;
  size_t next_block_ = 64 << 10;
};

void* arena_allocate(void* userdata, size_t size) {
  return static_cast<Arena*>(userdata)->allocate(size);
}
void arena_free(void*, void*) {}

const GumboNode* node_of(const void* node) { return static_cast<const GumboNode*>(node); }

}  // namespace

class GumboTree {
 public:
  Arena arena;
  GumboOutput* output = nullptr;
};

void GumboTreeDeleter::operator()(GumboTree* tree) const {
  delete tree;  // the arena frees every node
}

GumboTreePtr parse_with_gumbo(std::string_view html) {
  GumboTreePtr tree(new GumboTree);
  GumboOptions options = kGumboDefaultOptions;
  options.allocator = arena_allocate;
  options.deallocator = arena_free;
  options.userdata = &tree->arena;
  options.max_errors = 0;  // parse errors are of no use here and cost memory on broken pages
  tree->output = gumbo_parse_with_options(&options, html.data(), html.size());
  return tree;
}

std::string_view gumbo_tag(const void* node) {
  GumboTag tag = node_of(node)->v.element.tag;
  if (tag == GUMBO_TAG_UNKNOWN) return {};
  return gumbo_normalized_tagname(tag);
}

bool gumbo_self_closing(const void* node) {
  const GumboElement& element = node_of(node)->v.element;
  const GumboStringPiece& original = element.original_tag;
  if (original.data == nullptr || original.length < 2 ||
      original.data[original.length - 2] != '/' || original.data[original.length - 1] != '>') {
    return false;
  }
  // "<a href=/>" ends the same way, but its slash is the unquoted value of the last attribute.
  const char* slash = original.data + original.length - 2;
  const GumboVector& attributes = element.attributes;
  if (attributes.length > 0) {
    const auto* last = static_cast<const GumboAttribute*>(attributes.data[attributes.length - 1]);
    const GumboStringPiece& value = last->original_value;
    if (value.data != nullptr && value.length > 0 && slash < value.data + value.length) {
      return false;
    }
  }
  return true;
}

std::optional<std::string_view> gumbo_attribute(const void* node, std::string_view name) {
  const GumboVector& attributes = node_of(node)->v.element.attributes;
  for (unsigned i = 0; i < attributes.length; ++i) {
    const auto* attribute = static_cast<const GumboAttribute*>(attributes.data[i]);
    if (ascii_iequals(attribute->name, name)) {
      return std::string_view(attribute->value);
    }
  }
  return std::nullopt;
}

void walk_gumbo(const GumboTree& tree, HtmlVisitor& visitor, size_t max_depth) {
  struct Frame {
    const GumboNode* node;
    unsigned next_child;
    bool reported;  // start() was called, so end() is due
  };
  std::vector<Frame> stack;
  const GumboNode* root = tree.output->document;
  stack.push_back({root, 0, false});
  while (!stack.empty()) {
    Frame& frame = stack.back();
    const GumboVector& children = frame.node->type == GUMBO_NODE_DOCUMENT
                                      ? frame.node->v.document.children
                                      : frame.node->v.element.children;
    if (frame.next_child >= children.length) {
      if (frame.reported) visitor.end(HtmlElement::from_gumbo(frame.node));
      stack.pop_back();
      continue;
    }
    const auto* child = static_cast<const GumboNode*>(children.data[frame.next_child++]);
    switch (child->type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_WHITESPACE:
      case GUMBO_NODE_CDATA:
        visitor.text(child->v.text.text);
        break;
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE: {
        bool report = stack.size() <= max_depth;
        if (report && !visitor.start(HtmlElement::from_gumbo(child))) break;
        stack.push_back({child, 0, report});
        break;
      }
      default:  // comments, the document
        break;
    }
  }
}

}  // namespace winnow::html_backends
