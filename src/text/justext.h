#pragma once
// jusText (Pomikálek, 2011), the boilerplate remover NeMo Curator uses by default: the page is
// cut into paragraphs at block-level tags; each paragraph is classified on its own as good, bad,
// short or near-good from its length, stop-word density and link density; then short and
// near-good paragraphs are revised by their neighbours, and headings by their distance to good
// text. Behaviour follows the reference implementation (justext 3.0, as NeMo calls it):
// whitespace normalisation, Python's str.split() for words, str.lower() for stop words, and
// what jusText's lxml Cleaner removes first (head, script, style, comments; with forms=True
// and embedded=True: button, input, select, textarea and applet with their content, and the
// <form>, <iframe>, <object>, <embed>, <layer>, <param> tags alone, their content kept).
// Deliberate differences, each a fix: HTML5 sectioning tags (article, section, nav, header,
// footer, main, aside, figure, ol...) also start paragraphs, which jusText (older than HTML5)
// misses; whitespace-only text nodes separate words (jusText glues "<b>a</b> <i>b</i>" into
// "ab"); <template> content, which a browser never shows, is dropped; a block holding only
// a <br> is no paragraph (jusText makes an empty one, which can be revised to good and leaves
// an empty paragraph in its text).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "text/html_document.h"
#include "text/stop_words.h"

namespace winnow {

struct JusTextOptions {  // NeMo Curator's defaults
  size_t length_low = 70;
  size_t length_high = 200;
  double stopwords_low = 0.30;
  double stopwords_high = 0.32;
  double max_link_density = 0.2;
  size_t max_heading_distance = 200;
  bool no_headings = false;
  // Not in jusText: a <pre> block (code, usually) that is not link-heavy starts as near-good
  // instead of being judged by its stop words, so code inside good text is kept and code
  // among boilerplate is not.
  bool code_in_context = false;
  // Not in jusText: the container pass (justext_keep_container). After classification, the
  // deepest element holding at least `container_share` of the good text's characters is the
  // page's main content; inside it, paragraphs jusText rejected are kept too unless they are
  // clearly boilerplate (link density above `container_max_link_density`, a copyright line, a
  // <select>). It recovers what jusText's rules lose inside an article: code samples, headings
  // with a permalink, prose dense with cross-reference links. Outside it nothing changes.
  bool container = false;
  double container_share = 0.8;  // in (0.5, 1]: the element is then unique
  double container_max_link_density = 0.5;
};

enum class JusTextClass { kBad, kShort, kNearGood, kGood };

struct JusTextParagraph {
  std::string text;   // whitespace normalised and trimmed
  size_t length = 0;  // code points of text
  size_t chars_in_links = 0;
  bool heading = false;    // inside h1..h6
  bool in_pre = false;     // inside a <pre>
  bool copyright = false;  // contains a copyright sign
  uint32_t element = 0;    // the innermost element open where it starts (JusTextElement index)
  JusTextClass context_free = JusTextClass::kBad;
  JusTextClass final_class = JusTextClass::kBad;
};

// An element of the page, as the container pass needs it. Index 0 is the document itself;
// parents come before their children.
struct JusTextElement {
  uint32_t parent = 0;
  uint32_t depth = 0;
  bool top = false;  // <html> or <body>: never a container (that would be the whole page)
};

// The paragraphs of a parsed page (head, script, style, link, meta and template dropped);
// with `elements`, also the element tree the paragraphs' `element` indices point into.
std::vector<JusTextParagraph> justext_paragraphs(const HtmlDocument& document, size_t max_depth,
                                                 std::vector<JusTextElement>* elements = nullptr);

// Classifies in place. Without a stop-word list (a language Snowball does not cover) both
// stop-word thresholds count as met, so length and link density decide alone.
void justext_classify(std::vector<JusTextParagraph>& paragraphs, const StopWords* stop_words,
                      const JusTextOptions& options);

// The container pass (see JusTextOptions::container), after justext_classify. Returns the
// index of the container element, or 0 when there is none (no good text, or only <body> or
// <html> holds enough of it), in which case nothing changes.
uint32_t justext_keep_container(std::vector<JusTextParagraph>& paragraphs,
                                const std::vector<JusTextElement>& elements,
                                const JusTextOptions& options);

}  // namespace winnow
