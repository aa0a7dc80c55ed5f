#include "text/html_document.h"

#include <gumbo.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <string>
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

bool in_list(std::string_view tag, std::initializer_list<std::string_view> list) {
  return std::find(list.begin(), list.end(), tag) != list.end();
}

bool is_void(std::string_view tag) {
  return in_list(
      tag, {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
            "source", "track", "wbr", "keygen", "basefont", "bgsound", "frame", "image"});
}

// Elements whose content is text up to their end tag.
bool is_raw_text(std::string_view tag) {
  return in_list(tag, {"script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                       "noframes", "plaintext"});
}

// Opening one of these closes an open <p> (the common implied end tag).
bool closes_p(std::string_view tag) {
  return in_list(
      tag, {"address", "article", "aside", "blockquote", "div",    "dl",      "fieldset", "footer",
            "form",    "h1",      "h2",    "h3",         "h4",     "h5",      "h6",       "header",
            "hr",      "main",    "nav",   "ol",         "p",      "pre",     "section",  "table",
            "ul",      "li",      "dd",    "dt",         "figure", "details", "menu"});
}

// Tags that close an open sibling of their own kind.
bool closes_sibling(std::string_view tag, std::string_view open) {
  if (tag == open) return in_list(tag, {"li", "dt", "dd", "option", "tr", "td", "th", "p"});
  return (tag == "td" && open == "th") || (tag == "th" && open == "td") ||
         (tag == "dt" && open == "dd") || (tag == "dd" && open == "dt");
}

}  // namespace

std::string limit_html_nesting(std::string_view html, size_t max_depth) {
  std::vector<std::string> stack;
  std::vector<std::pair<size_t, size_t>> cuts;  // byte ranges of tags to drop
  size_t dropped_open = 0;                      // start tags dropped and not yet closed
  std::string name;
  auto read_name = [&](size_t i) {
    name.clear();
    while (i < html.size() && (std::isalnum(static_cast<unsigned char>(html[i])) ||
                               html[i] == '-' || html[i] == ':')) {
      name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(html[i]))));
      ++i;
    }
    return i;
  };
  size_t i = 0;
  while ((i = html.find('<', i)) != std::string_view::npos) {
    size_t start = i;
    if (html.substr(i, 4) == "<!--") {
      size_t end = html.find("-->", i + 4);
      i = end == std::string_view::npos ? html.size() : end + 3;
      continue;
    }
    bool closing = i + 1 < html.size() && html[i + 1] == '/';
    size_t name_start = i + (closing ? 2 : 1);
    if (name_start >= html.size() || !std::isalpha(static_cast<unsigned char>(html[name_start]))) {
      i = name_start;  // "<!doctype", "< ", "<?...": not a tag that nests
      continue;
    }
    size_t after = read_name(name_start);
    size_t end = html.find('>', after);
    if (end == std::string_view::npos) break;
    i = end + 1;
    if (closing) {
      auto it = std::find(stack.rbegin(), stack.rend(), name);
      if (it != stack.rend()) {
        stack.erase(std::prev(it.base()), stack.end());
      } else if (dropped_open > 0) {
        cuts.emplace_back(start, i);  // most likely the end of a dropped start tag
        --dropped_open;
      }
      continue;
    }
    if (is_raw_text(name)) {
      // Skip the content; the element itself does not stay open.
      std::string close = "</" + name;
      size_t pos = i;
      while (true) {
        pos = html.find("</", pos);
        if (pos == std::string_view::npos) break;
        std::string_view candidate = html.substr(pos, close.size());
        if (candidate.size() == close.size() &&
            std::equal(candidate.begin(), candidate.end(), close.begin(), [](char a, char b) {
              return std::tolower(static_cast<unsigned char>(a)) == b;
            }))
          break;
        pos += 2;
      }
      i = pos == std::string_view::npos ? html.size() : pos;
      continue;
    }
    if (is_void(name) || html[end - 1] == '/') continue;
    if (!stack.empty() && stack.back() == "p" && closes_p(name)) stack.pop_back();
    if (!stack.empty() && closes_sibling(name, stack.back())) stack.pop_back();
    if (stack.size() >= max_depth) {
      cuts.emplace_back(start, i);
      ++dropped_open;
      continue;
    }
    stack.push_back(name);
  }
  if (cuts.empty()) return {};
  std::string out;
  out.reserve(html.size());
  size_t from = 0;
  for (auto [begin, end] : cuts) {
    out.append(html.substr(from, begin - from));
    from = end;
  }
  out.append(html.substr(from));
  return out;
}

struct HtmlDocument::Impl {
  Arena arena;
  std::string limited;  // the page with over-deep tags removed, when any were
  GumboOutput* output = nullptr;
};

std::string_view HtmlElement::tag() const {
  const auto* node = static_cast<const GumboNode*>(node_);
  GumboTag tag = node->v.element.tag;
  if (tag == GUMBO_TAG_UNKNOWN) return {};
  return gumbo_normalized_tagname(tag);
}

bool HtmlElement::self_closing() const {
  const auto* node = static_cast<const GumboNode*>(node_);
  const GumboStringPiece& original = node->v.element.original_tag;
  if (original.data == nullptr || original.length < 2 ||
      original.data[original.length - 2] != '/' || original.data[original.length - 1] != '>') {
    return false;
  }
  // "<a href=/>" ends the same way, but its slash is the unquoted value of the last attribute.
  const char* slash = original.data + original.length - 2;
  const GumboVector& attributes = node->v.element.attributes;
  if (attributes.length > 0) {
    const auto* last = static_cast<const GumboAttribute*>(attributes.data[attributes.length - 1]);
    const GumboStringPiece& value = last->original_value;
    if (value.data != nullptr && value.length > 0 && slash < value.data + value.length) {
      return false;
    }
  }
  return true;
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

HtmlDocument::HtmlDocument(std::string_view html, size_t max_depth)
    : impl_(std::make_unique<Impl>()) {
  impl_->limited = limit_html_nesting(html, max_depth);
  if (!impl_->limited.empty()) html = impl_->limited;
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
