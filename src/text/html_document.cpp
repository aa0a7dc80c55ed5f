#include "text/html_document.h"

#include <gumbo.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace winnow {

namespace {

// Bump allocation for gumbo: one free at the end instead of a recursive tree destructor.
// Gumbo grows its buffers by doubling, so the waste is bounded by a small factor.
class Arena {
 public:
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

}  // namespace

struct HtmlDocument::Impl {
  Arena arena;
  GumboOutput* output = nullptr;
};

std::string_view HtmlElement::tag() const {
  const auto* node = static_cast<const GumboNode*>(node_);
  GumboTag tag = node->v.element.tag;
  if (tag == GUMBO_TAG_UNKNOWN) return {};
  return gumbo_normalized_tagname(tag);
}

std::optional<std::string_view> HtmlElement::attribute(std::string_view name) const {
  const auto* node = static_cast<const GumboNode*>(node_);
  const GumboVector& attributes = node->v.element.attributes;
  for (unsigned i = 0; i < attributes.length; ++i) {
    const auto* attribute = static_cast<const GumboAttribute*>(attributes.data[i]);
    if (name.size() == std::strlen(attribute->name) &&
        strncasecmp(attribute->name, name.data(), name.size()) == 0) {
      return std::string_view(attribute->value);
    }
  }
  return std::nullopt;
}

HtmlDocument::HtmlDocument(std::string_view html) : impl_(std::make_unique<Impl>()) {
  GumboOptions options = kGumboDefaultOptions;
  options.allocator = arena_allocate;
  options.deallocator = arena_free;
  options.userdata = &impl_->arena;
  options.max_errors = 0;  // parse errors are of no use here and cost memory on broken pages
  impl_->output = gumbo_parse_with_options(&options, html.data(), html.size());
}

HtmlDocument::~HtmlDocument() = default;  // the arena frees every node

void HtmlDocument::walk(HtmlVisitor& visitor, size_t max_depth) const {
  struct Frame {
    const GumboNode* node;
    unsigned next_child;
    bool reported;  // start() was called, so end() is due
  };
  std::vector<Frame> stack;
  const GumboNode* root = impl_->output->document;
  stack.push_back({root, 0, false});
  while (!stack.empty()) {
    Frame& frame = stack.back();
    const GumboVector& children = frame.node->type == GUMBO_NODE_DOCUMENT
                                      ? frame.node->v.document.children
                                      : frame.node->v.element.children;
    if (frame.next_child >= children.length) {
      if (frame.reported) visitor.end(HtmlElement(frame.node));
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
        if (report && !visitor.start(HtmlElement(child))) break;
        stack.push_back({child, 0, report});
        break;
      }
      default:  // comments, the document
        break;
    }
  }
}

}  // namespace winnow
