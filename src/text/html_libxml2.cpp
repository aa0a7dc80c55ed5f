// HtmlDocument's libxml2 backend: the page is parsed by libxml2's HTML parser (the one lxml,
// and so jusText and NeMo Curator, use) with SAX callbacks that report the events as they come.
// No tree is built, which is where most of a tree parser's time goes.
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include <climits>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "text/html_parser_backends.h"

namespace winnow::html_backends {

namespace {

// The walk's state, shared with the callbacks through the parser context's user data.
class SaxWalk {
 public:
  SaxWalk(HtmlVisitor& visitor, size_t max_depth) : visitor_(visitor), max_depth_(max_depth) {}

  void start(const xmlChar* name, const xmlChar** attributes) {
    flush_text();
    std::string_view tag = as_view(name);
    // As in the tree walk: element depth counts the document, so <html> is at depth 1.
    bool report = skip_at_ == kNone && open_.size() + 1 <= max_depth_;
    if (report && !visitor_.start(HtmlElement::from_libxml2(tag, attributes))) {
      open_.push_back({tag, false});
      skip_at_ = open_.size() - 1;
      return;
    }
    open_.push_back({tag, report});
  }

  void end(const xmlChar* name) {
    flush_text();
    // libxml2 closes what it opened, implied end tags included; an end tag that matches
    // nothing open is dropped by the parser. Matching by name keeps the walk balanced anyway.
    std::string_view tag = as_view(name);
    size_t i = open_.size();
    while (i > 0 && open_[i - 1].tag != tag) --i;
    if (i == 0) return;
    close_down_to(i - 1);
  }

  void text(const xmlChar* chars, int length) {
    if (skip_at_ == kNone && length > 0) text_.append(reinterpret_cast<const char*>(chars), length);
  }

  void finish() {
    flush_text();
    close_down_to(0);
  }

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  struct Open {
    std::string_view tag;  // libxml2's interned name, valid while the parser lives
    bool reported;         // start() was called and said to go on, so end() is due
  };

  static std::string_view as_view(const xmlChar* s) {
    return s ? std::string_view(reinterpret_cast<const char*>(s)) : std::string_view();
  }

  // libxml2 hands text over in pieces (at entities, at its buffer's end); visitors get each
  // run of text in one call, as from a tree's text node.
  void flush_text() {
    if (text_.empty()) return;
    visitor_.text(text_);
    text_.clear();
  }

  void close_down_to(size_t index) {
    while (open_.size() > index) {
      Open top = open_.back();
      open_.pop_back();
      if (skip_at_ == open_.size()) {
        skip_at_ = kNone;  // the skipped element itself: no end() for it
      } else if (top.reported && skip_at_ == kNone) {
        visitor_.end(HtmlElement::from_libxml2(top.tag, nullptr));
      }
    }
  }

  HtmlVisitor& visitor_;
  size_t max_depth_;
  std::vector<Open> open_;
  size_t skip_at_ = kNone;  // index in open_ of the element whose subtree is skipped
  std::string text_;
};

struct CallbackData {
  SaxWalk* walk;
  htmlParserCtxtPtr context;
  std::exception_ptr error;  // a visitor's exception, rethrown once libxml2 has returned
};

// Exceptions must not unwind through libxml2's C frames: keep the first, stop the parser.
template <typename F>
void guarded(void* user, F&& f) {
  auto* data = static_cast<CallbackData*>(user);
  if (data->error) return;
  try {
    f(*data->walk);
  } catch (...) {
    data->error = std::current_exception();
    xmlStopParser(data->context);
  }
}

void on_start(void* user, const xmlChar* name, const xmlChar** attributes) {
  guarded(user, [&](SaxWalk& w) { w.start(name, attributes); });
}
void on_end(void* user, const xmlChar* name) {
  guarded(user, [&](SaxWalk& w) { w.end(name); });
}
void on_text(void* user, const xmlChar* chars, int length) {
  guarded(user, [&](SaxWalk& w) { w.text(chars, length); });
}

void init_libxml2_once() {
  static const bool initialised = [] {
    xmlInitParser();
    return true;
  }();
  (void)initialised;
}

}  // namespace

void walk_libxml2(std::string_view html, HtmlVisitor& visitor, size_t max_depth) {
  init_libxml2_once();
  if (html.size() > static_cast<size_t>(INT_MAX)) html = html.substr(0, INT_MAX);  // libxml2's int
  SaxWalk walk(visitor, max_depth);
  htmlParserCtxtPtr context =
      htmlCreateMemoryParserCtxt(html.data(), static_cast<int>(html.size()));
  if (context == nullptr) throw std::bad_alloc();
  CallbackData data{&walk, context, nullptr};
  htmlSAXHandler handler;
  std::memset(&handler, 0, sizeof handler);
  handler.startElement = on_start;
  handler.endElement = on_end;
  // Whitespace, text and the raw text of <script>/<style> all arrive as text, as in a tree.
  handler.characters = on_text;
  handler.ignorableWhitespace = on_text;
  handler.cdataBlock = on_text;
  *context->sax = handler;  // comments, doctype, errors and warnings: no callback
  context->userData = &data;
  // The bytes are UTF-8 already (decoded by the caller): a <meta charset> must not switch the
  // decoder. Recover from any markup, stay silent, never touch the network.
  xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8);
  htmlCtxtUseOptions(context, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                  HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC);
  htmlParseDocument(context);
  htmlFreeParserCtxt(context);
  if (data.error) std::rethrow_exception(data.error);
  walk.finish();
}

}  // namespace winnow::html_backends
