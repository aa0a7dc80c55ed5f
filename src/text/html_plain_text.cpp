#include "text/html_plain_text.h"

#include <algorithm>

#include "core/ascii.h"
#include "text/tag_set.h"
#include "text/unicode_space.h"

namespace winnow {

namespace {

constexpr TagSet kBlockTags{
    "address", "article", "aside", "blockquote", "body",    "caption",  "center",     "dd",
    "details", "dialog",  "div",   "dl",         "dt",      "fieldset", "figcaption", "figure",
    "footer",  "form",    "h1",    "h2",         "h3",      "h4",       "h5",         "h6",
    "header",  "hgroup",  "hr",    "li",         "main",    "menu",     "nav",        "ol",
    "option",  "p",       "pre",   "section",    "summary", "table",    "tbody",      "td",
    "tfoot",   "th",      "thead", "tr",         "ul",      "legend",   "textarea",   "title"};

bool is_block(std::string_view tag) { return kBlockTags.contains(tag); }

constexpr TagSet kInvisibleTags{"head",   "script", "style", "template", "noscript", "iframe",
                                "object", "svg",    "math",  "select",   "datalist"};

bool is_invisible_tag(std::string_view tag) { return kInvisibleTags.contains(tag); }

bool is_hidden(const HtmlElement& element) {
  if (element.attribute("hidden")) return true;
  if (auto aria = element.attribute("aria-hidden"); aria && ascii_lowered(*aria) == "true")
    return true;
  if (auto style = element.attribute("style")) {
    std::string s = ascii_lowered(*style);
    s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t'; }),
            s.end());
    if (s.find("display:none") != std::string::npos ||
        s.find("visibility:hidden") != std::string::npos)
      return true;
  }
  return false;
}

class PlainText final : public HtmlVisitor {
 public:
  bool start(const HtmlElement& element) override {
    std::string_view tag = element.tag();
    if (is_invisible_tag(tag) || is_hidden(element)) return false;
    if (is_block(tag)) flush();
    if (tag == "br") line_.push_back('\n');
    if (tag == "pre") ++pre_;
    return true;
  }
  void end(const HtmlElement& element) override {
    std::string_view tag = element.tag();
    if (tag == "pre" && pre_ > 0) --pre_;
    if (is_block(tag)) flush();
  }
  void text(std::string_view content) override {
    if (pre_ > 0) {
      // Keep line breaks; other whitespace runs become one space per line.
      size_t start = 0;
      while (start <= content.size()) {
        size_t nl = content.find('\n', start);
        std::string_view piece = content.substr(
            start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        std::string collapsed;
        append_normalized_whitespace(collapsed, piece);
        line_ += collapsed;
        if (nl == std::string_view::npos) break;
        line_.push_back('\n');
        start = nl + 1;
      }
      return;
    }
    std::string collapsed;
    append_normalized_whitespace(collapsed, content);
    for (char& c : collapsed) {
      if (c == '\n') c = ' ';
    }
    line_ += collapsed;
  }
  std::string finish() {
    flush();
    return std::move(out_);
  }

 private:
  // Ends the current paragraph: trims each line, drops empty lines, appends it.
  void flush() {
    std::string paragraph;
    size_t start = 0;
    while (start <= line_.size()) {
      size_t nl = line_.find('\n', start);
      std::string_view piece = std::string_view(line_).substr(
          start, nl == std::string::npos ? std::string::npos : nl - start);
      std::string squeezed;
      append_normalized_whitespace(squeezed, trim_unicode_space(piece));
      if (!squeezed.empty()) {
        if (!paragraph.empty()) paragraph.push_back('\n');
        paragraph += squeezed;
      }
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    line_.clear();
    if (paragraph.empty()) return;
    if (!out_.empty()) out_ += "\n\n";
    out_ += paragraph;
  }

  std::string line_;
  std::string out_;
  int pre_ = 0;
};

}  // namespace

std::string html_plain_text(const HtmlDocument& document, size_t max_depth) {
  PlainText visitor;
  document.walk(visitor, max_depth);
  return visitor.finish();
}

}  // namespace winnow
