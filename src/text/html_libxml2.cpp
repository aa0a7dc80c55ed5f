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
#include <utility>
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

// Parses `html` (UTF-8) with libxml2's HTML parser, reporting to `handler` with `user` as
// its data; `on_context` sees the parser context first (to stop it from a callback).
template <typename OnContext>
void parse_with_sax(std::string_view html, const htmlSAXHandler& handler, void* user,
                    OnContext on_context) {
  if (html.empty()) return;  // no elements, no text (libxml2 makes no context for it)
  init_libxml2_once();
  if (html.size() > static_cast<size_t>(INT_MAX)) html = html.substr(0, INT_MAX);  // libxml2's int
  htmlParserCtxtPtr context =
      htmlCreateMemoryParserCtxt(html.data(), static_cast<int>(html.size()));
  if (context == nullptr) throw std::bad_alloc();
  *context->sax = handler;  // what the handler leaves null (comments, errors...) is ignored
  context->userData = user;
  on_context(context);
  // The bytes are UTF-8 already (decoded by the caller): a <meta charset> must not switch the
  // decoder. Recover from any markup, stay silent, never touch the network.
  xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8);
  htmlCtxtUseOptions(context, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                  HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC);
  htmlParseDocument(context);
  htmlFreeParserCtxt(context);
}

}  // namespace

void walk_libxml2(std::string_view html, HtmlVisitor& visitor, size_t max_depth) {
  HtmlEventSink sink(visitor, max_depth);
  CallbackData data{&sink, nullptr, nullptr};
  htmlSAXHandler handler;
  std::memset(&handler, 0, sizeof handler);
  handler.startElement = on_start;
  handler.endElement = on_end;
  // Whitespace, text and the raw text of <script>/<style> all arrive as text, as in a tree.
  handler.characters = on_text;
  handler.ignorableWhitespace = on_text;
  handler.cdataBlock = on_text;
  parse_with_sax(html, handler, &data, [&](htmlParserCtxtPtr context) { data.context = context; });
  if (data.error) std::rethrow_exception(data.error);
  sink.finish();
}

namespace {

// The start, end and text events libxml2's parser gives for `html`: "+tag", "-tag", "#".
std::vector<std::string> libxml2_events(const std::string& html) {
  std::vector<std::string> events;
  htmlSAXHandler handler;
  std::memset(&handler, 0, sizeof handler);
  handler.startElement = [](void* user, const xmlChar* name, const xmlChar**) {
    static_cast<std::vector<std::string>*>(user)->push_back("+" + std::string(as_view(name)));
  };
  handler.endElement = [](void* user, const xmlChar* name) {
    static_cast<std::vector<std::string>*>(user)->push_back("-" + std::string(as_view(name)));
  };
  handler.characters = [](void* user, const xmlChar*, int) {
    static_cast<std::vector<std::string>*>(user)->push_back("#");
  };
  parse_with_sax(html, handler, &events, [](htmlParserCtxtPtr) {});
  return events;
}

size_t index_of(const std::vector<std::string>& events, const std::string& event, size_t from = 0) {
  for (size_t i = from; i < events.size(); ++i) {
    if (events[i] == event) return i;
  }
  return events.size();
}

// Answers remembered per thread, keyed by the two packed tags (both at most 16 bytes), in a
// direct-mapped table: a page asks about a few dozen pairs, again and again, and a miss costs
// one probe parse (microseconds). Memory stays fixed whatever tags pages invent.
class PairCache {
 public:
  template <typename Ask>
  bool get(std::string_view a, std::string_view b, Ask ask) {
    if (a.size() > 16 || b.size() > 16) return ask();  // no HTML tag is that long
    auto [a1, a2] = tag_set_detail::pack(a);
    auto [b1, b2] = tag_set_detail::pack(b);
    uint64_t h = (a1 * 0x9E3779B97F4A7C15ULL) ^ (a2 + (a1 >> 29));
    h = ((h ^ b1) * 0xBF58476D1CE4E5B9ULL) ^ (b2 + (h >> 31));
    Entry& e = entries_[(h ^ (h >> 32)) & (kEntries - 1)];
    if (e.used && e.a1 == a1 && e.a2 == a2 && e.b1 == b1 && e.b2 == b2) return e.answer;
    bool answer = ask();
    e = Entry{a1, a2, b1, b2, true, answer};
    return answer;
  }

 private:
  static constexpr size_t kEntries = 1024;
  struct Entry {
    uint64_t a1 = 0, a2 = 0, b1 = 0, b2 = 0;
    bool used = false;
    bool answer = false;
  };
  std::vector<Entry> entries_ = std::vector<Entry>(kEntries);
};

// libxml2 knows this element (its HTML 4 table): only known elements close others at a start
// tag, or are closed by one.
bool known_to_libxml2(const std::string& tag) {
  return htmlTagLookup(reinterpret_cast<const xmlChar*>(tag.c_str())) != nullptr;
}

}  // namespace

bool libxml2_start_closes(std::string_view tag, std::string_view open, bool in_head) {
  thread_local PairCache body_cache, head_cache;
  return (in_head ? head_cache : body_cache).get(tag, open, [&] {
    std::string t(tag), o(open);
    if (!known_to_libxml2(t) || !known_to_libxml2(o)) return false;
    if (o == "head") {  // <head> only opens right under <html>
      auto events = libxml2_events("<html><head><" + t + ">");
      size_t started = index_of(events, "+" + t);
      return started < events.size() && index_of(events, "-head") < started;
    }
    // Closed before the text after the new tag: libxml2 may also drop the new tag (a
    // misplaced <head>) after closing what it closes.
    auto events =
        libxml2_events((in_head ? "<html><head><" : "<html><body><") + o + "><" + t + ">x");
    size_t opened = index_of(events, "+" + o);
    return index_of(events, "-" + o, opened) < index_of(events, "#", opened);
  });
}

bool libxml2_end_closes_across(std::string_view end_tag, std::string_view open) {
  thread_local PairCache cache;
  return cache.get(end_tag, open, [&] {
    // An unknown element between them keeps `open`'s start from closing `end_tag`'s element
    // (libxml2 only checks the top), and never stops an end tag itself.
    std::string e(end_tag), o(open);
    auto events = libxml2_events("<html><body><" + e + "><winnow-probe><" + o + "></" + e + ">x");
    size_t opened = index_of(events, "+" + o, index_of(events, "+winnow-probe"));
    return index_of(events, "-" + o, opened) < index_of(events, "#", opened);
  });
}

}  // namespace winnow::html_backends
