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

std::string_view as_view(const xmlChar* s) {
  return s ? std::string_view(reinterpret_cast<const char*>(s)) : std::string_view();
}

struct CallbackData {
  HtmlEventSink* sink;
  htmlParserCtxtPtr context;
  std::exception_ptr error;  // a visitor's exception, rethrown once libxml2 has returned
};

// Exceptions must not unwind through libxml2's C frames: keep the first, stop the parser.
template <typename F>
void guarded(void* user, F&& f) {
  auto* data = static_cast<CallbackData*>(user);
  if (data->error) return;
  try {
    f(*data->sink);
  } catch (...) {
    data->error = std::current_exception();
    xmlStopParser(data->context);
  }
}

void on_start(void* user, const xmlChar* name, const xmlChar** attributes) {
  guarded(user, [&](HtmlEventSink& sink) {
    std::string_view tag = as_view(name);
    sink.start(tag, HtmlElement::from_libxml2(tag, attributes));
  });
}
void on_end(void* user, const xmlChar* name) {
  // libxml2 closes what it opened, implied end tags included; an end tag that matches
  // nothing open is dropped by the parser. The sink matches by name anyway.
  guarded(user, [&](HtmlEventSink& sink) { sink.end(as_view(name)); });
}
void on_text(void* user, const xmlChar* chars, int length) {
  // libxml2 hands text over in pieces (at entities, at its buffer's end); the sink joins them.
  guarded(user, [&](HtmlEventSink& sink) {
    // Valid only during the callback: copied into the run.
    if (length > 0 && sink.wants_text()) {
      sink.text_buffer().append(reinterpret_cast<const char*>(chars), static_cast<size_t>(length));
    }
  });
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
  if (html.empty()) return;  // no elements, no text (libxml2 makes no context for it)
  init_libxml2_once();
  if (html.size() > static_cast<size_t>(INT_MAX)) html = html.substr(0, INT_MAX);  // libxml2's int
  HtmlEventSink sink(visitor, max_depth);
  htmlParserCtxtPtr context =
      htmlCreateMemoryParserCtxt(html.data(), static_cast<int>(html.size()));
  if (context == nullptr) throw std::bad_alloc();
  CallbackData data{&sink, context, nullptr};
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
  sink.finish();
}

}  // namespace winnow::html_backends
