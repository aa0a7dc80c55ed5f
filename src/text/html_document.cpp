#include "text/html_document.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "core/ascii.h"
#include "text/html_parser_backends.h"
#include "text/tag_set.h"

namespace winnow {

namespace {

constexpr TagSet kVoidTags{"area",   "base",     "br",      "col",   "embed",  "hr",    "img",
                           "input",  "link",     "meta",    "param", "source", "track", "wbr",
                           "keygen", "basefont", "bgsound", "frame", "image"};

bool is_void(std::string_view tag) { return kVoidTags.contains(tag); }

// Elements whose content is text up to their end tag.
constexpr TagSet kRawTextTags{"script", "style",   "textarea", "title",    "xmp",
                              "iframe", "noembed", "noframes", "plaintext"};

bool is_raw_text(std::string_view tag) { return kRawTextTags.contains(tag); }

// Opening one of these closes an open <p> (the common implied end tag).
constexpr TagSet kClosesPTags{"address", "article", "aside", "blockquote", "div", "dl", "fieldset",
                              "footer",  "form",    "h1",    "h2",         "h3",  "h4", "h5",
                              "h6",      "header",  "hr",    "main",       "nav", "ol", "p",
                              "pre",     "section", "table", "ul",         "li",  "dd", "dt",
                              "figure",  "details", "menu"};

bool closes_p(std::string_view tag) { return kClosesPTags.contains(tag); }

// Tags that close an open sibling of their own kind.
bool closes_sibling(std::string_view tag, std::string_view open) {
  static constexpr TagSet kSelfClosing{"li", "dt", "dd", "option", "tr", "td", "th", "p"};
  if (tag == open) return kSelfClosing.contains(tag);
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
    while (i < html.size() && (is_ascii_alnum(html[i]) || html[i] == '-' || html[i] == ':')) {
      name.push_back(ascii_lower(html[i]));
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
    if (name_start >= html.size() || !is_ascii_alpha(html[name_start])) {
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
        if (ascii_iequals(candidate, close)) break;
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

std::optional<HtmlParser> parse_html_parser_name(std::string_view name) {
  if (name == "libxml2") return HtmlParser::kLibxml2;
  if (name == "gumbo") return HtmlParser::kGumbo;
  if (name == "scanner") return HtmlParser::kScanner;
  return std::nullopt;
}

std::string_view html_parser_name(HtmlParser parser) {
  switch (parser) {
    case HtmlParser::kLibxml2:
      return "libxml2";
    case HtmlParser::kGumbo:
      return "gumbo";
    case HtmlParser::kScanner:
      return "scanner";
  }
  return {};
}

std::string_view HtmlElement::tag() const {
  return gumbo_node_ ? html_backends::gumbo_tag(gumbo_node_) : tag_;
}

bool HtmlElement::self_closing() const {
  return gumbo_node_ && html_backends::gumbo_self_closing(gumbo_node_);
}

std::optional<std::string_view> HtmlElement::attribute(std::string_view name) const {
  if (gumbo_node_) return html_backends::gumbo_attribute(gumbo_node_, name);
  for (size_t i = 0; i < scanned_count_; ++i) {
    if (ascii_iequals(scanned_attributes_[i].name, name)) return scanned_attributes_[i].value;
  }
  for (const unsigned char* const* a = xml_attributes_; a && a[0]; a += 2) {
    if (ascii_iequals(reinterpret_cast<const char*>(a[0]), name)) {
      return a[1] ? std::string_view(reinterpret_cast<const char*>(a[1])) : std::string_view();
    }
  }
  return std::nullopt;
}

struct HtmlDocument::Impl {
  HtmlParser parser = HtmlParser::kGumbo;
  std::string limited;  // the page with over-deep tags removed, when any were
  std::string_view html;
  size_t max_open = 0;  // the nesting cap
  html_backends::GumboTreePtr gumbo;
};

HtmlDocument::HtmlDocument(std::string_view html, size_t max_depth, HtmlParser parser)
    : impl_(std::make_unique<Impl>()) {
  impl_->parser = parser;
  impl_->max_open = max_depth;
  // The scanner caps nesting itself, in its one pass.
  if (parser != HtmlParser::kScanner) impl_->limited = limit_html_nesting(html, max_depth);
  impl_->html = impl_->limited.empty() ? html : std::string_view(impl_->limited);
  if (parser == HtmlParser::kGumbo) impl_->gumbo = html_backends::parse_with_gumbo(impl_->html);
}

HtmlDocument::~HtmlDocument() = default;

void HtmlDocument::walk(HtmlVisitor& visitor, size_t max_depth) const {
  switch (impl_->parser) {
    case HtmlParser::kGumbo:
      html_backends::walk_gumbo(*impl_->gumbo, visitor, max_depth);
      break;
    case HtmlParser::kLibxml2:
      html_backends::walk_libxml2(impl_->html, visitor, max_depth);
      break;
    case HtmlParser::kScanner:
      html_backends::walk_scanner(impl_->html, visitor, max_depth, impl_->max_open);
      break;
  }
}

}  // namespace winnow
