#include "text/trafilatura_page.h"

#include <algorithm>

#include "core/utf8.h"
#include "text/tag_set.h"
#include "text/trafilatura_rules.h"
#include "text/unicode_space.h"

namespace winnow {

namespace {

using Kind = TrafilaturaBlockKind;

// Tags that start and end a block of text (jusText's list with the HTML5 block elements).
constexpr TagSet kBlockTags{
    "body", "blockquote", "caption", "center", "dd", "div", "dl", "dt", "p", "pre", "table",
    "td", "tfoot", "th", "thead", "tbody", "tr", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5",
    "h6", "article", "header", "main", "section", "figcaption", "hr", "address", "details",
    "summary", "hgroup", "form"};

constexpr TagSet kDivLikeTags{"div", "section", "article", "main", "header", "center", "form",
                              "details"};

bool is_heading(std::string_view tag) {
  return tag.size() == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6';
}

// The kind of the blocks a block element starts; elements without a kind of their own
// (<div> inside <li>) keep the enclosing one.
Kind kind_of(std::string_view tag, Kind enclosing) {
  if (tag == "p") return Kind::kParagraph;
  if (is_heading(tag)) return Kind::kHeading;
  if (tag == "li" || tag == "dt" || tag == "dd") return Kind::kListItem;
  if (tag == "td" || tag == "th" || tag == "caption") return Kind::kCell;
  if (tag == "pre") return Kind::kCode;
  if (tag == "blockquote") return Kind::kQuote;
  return enclosing;
}

TrafilaturaContainer container_of(std::string_view tag) {
  if (kDivLikeTags.contains(tag)) return TrafilaturaContainer::kDiv;
  if (tag == "ul" || tag == "ol" || tag == "dl") return TrafilaturaContainer::kList;
  if (tag == "table") return TrafilaturaContainer::kTable;
  return TrafilaturaContainer::kNone;
}

bool is_space_byte(char c) { return c == ' ' || c == '\n'; }

class PageBuilder final : public HtmlVisitor {
 public:
  explicit PageBuilder(TrafilaturaPage& page) : page_(page) {
    page_.elements.emplace_back();
    open_.push_back({0, Kind::kText});
  }

  bool start(const HtmlElement& element) override {
    std::string_view tag = element.tag();
    TrafilaturaElementRule rule = classify_trafilatura_element(element);
    if (rule.removed) return false;
    auto index = static_cast<uint32_t>(page_.elements.size());
    TrafilaturaElement e;
    e.parent = open_.back().element;
    e.candidate = rule.candidate;
    e.boilerplate = rule.boilerplate;
    e.container = container_of(tag);
    ++page_.elements[e.parent].children;
    page_.elements.push_back(e);
    bool block = kBlockTags.contains(tag);
    if (block) flush();
    open_.push_back({index, block ? kind_of(tag, open_.back().kind) : open_.back().kind});
    if (block) begin_block();
    if (tag == "br") {  // a line break ends a block, as trafilatura's output lines do
      flush();
      begin_block();
    }
    if (tag == "a" && !element.self_closing() && links_open_++ == 0) link_chars_ = 0;
    return true;
  }

  void end(const HtmlElement& element) override {
    std::string_view tag = element.tag();
    if (tag == "a" && links_open_ > 0 && --links_open_ == 0 && link_chars_ > 0) {
      ++current_.totals.links;
      if (link_chars_ < 10) ++current_.totals.short_links;
    }
    bool block = kBlockTags.contains(tag);
    if (block) flush();
    if (open_.size() > 1) {
      page_.elements[open_.back().element].end = static_cast<uint32_t>(page_.elements.size());
      open_.pop_back();
    }
    if (block) begin_block();
  }

  void text(std::string_view content) override {
    std::string& text = current_.text;
    if (text.empty() && is_blank_unicode(content)) return;
    size_t before = text.size();
    append_normalized_whitespace(text, content);
    // Two whitespace runs meeting across text nodes become one.
    if (before > 0 && before < text.size() && is_space_byte(text[before - 1]) &&
        is_space_byte(text[before])) {
      if (text[before] == '\n') text[before - 1] = '\n';
      text.erase(before, 1);
    }
    if (links_open_ > 0 && before < text.size()) {
      size_t added = count_code_points(std::string_view(text).substr(before));
      current_.totals.link_chars += added;
      link_chars_ += added;
    }
  }

  void finish() {
    flush();
    for (auto& e : page_.elements) {
      if (e.end == 0) e.end = static_cast<uint32_t>(page_.elements.size());
    }
    page_.elements[0].end = static_cast<uint32_t>(page_.elements.size());
    // Parents come before their children: one backward pass sums every subtree.
    for (const auto& b : page_.blocks) page_.elements[b.element].totals.add(b.totals);
    for (size_t i = page_.elements.size(); i-- > 1;) {
      page_.elements[page_.elements[i].parent].totals.add(page_.elements[i].totals);
    }
  }

 private:
  struct Open {
    uint32_t element;
    Kind kind;  // of the blocks started inside it
  };

  void begin_block() {
    current_ = TrafilaturaBlock();
    current_.element = open_.back().element;
    current_.kind = open_.back().kind;
  }

  void flush() {
    std::string trimmed(trim_unicode_space(current_.text));
    if (!trimmed.empty()) {
      TrafilaturaBlock block = std::move(current_);
      block.text = std::move(trimmed);
      // Source line breaks mean nothing outside <pre>.
      if (block.kind != Kind::kCode) std::replace(block.text.begin(), block.text.end(), '\n', ' ');
      block.totals.chars = count_code_points(block.text);
      block.totals.link_chars = std::min(block.totals.link_chars, block.totals.chars);
      page_.blocks.push_back(std::move(block));
    }
    current_.text.clear();
    current_.totals = TrafilaturaTextTotals();
  }

  TrafilaturaPage& page_;
  std::vector<Open> open_;
  TrafilaturaBlock current_;
  int links_open_ = 0;
  size_t link_chars_ = 0;  // of the link being read
};

}  // namespace

TrafilaturaPage trafilatura_page(const HtmlDocument& document, size_t max_depth) {
  TrafilaturaPage page;
  PageBuilder builder(page);
  document.walk(builder, max_depth);
  builder.finish();
  return page;
}

}  // namespace winnow
