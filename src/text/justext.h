#pragma once
// jusText (Pomikálek, 2011), the boilerplate remover NeMo Curator uses by default: the page is
// cut into paragraphs at block-level tags; each paragraph is classified on its own as good, bad,
// short or near-good from its length, stop-word density and link density; then short and
// near-good paragraphs are revised by their neighbours, and headings by their distance to good
// text. Behaviour follows the reference implementation (justext 3.0, as NeMo calls it):
// whitespace normalisation, Python's str.split() for words, str.lower() for stop words. One
// deliberate difference: HTML5 sectioning tags (article, section, nav, header, footer, main,
// aside, figure, ol...) also start paragraphs, which jusText (older than HTML5) misses.
#include <cstddef>
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
};

enum class JusTextClass { kBad, kShort, kNearGood, kGood };

struct JusTextParagraph {
  std::string text;   // whitespace normalised and trimmed
  size_t length = 0;  // code points of text
  size_t chars_in_links = 0;
  bool heading = false;    // inside h1..h6
  bool in_select = false;  // inside a <select>
  bool in_pre = false;     // inside a <pre>
  JusTextClass context_free = JusTextClass::kBad;
  JusTextClass final_class = JusTextClass::kBad;
};

// The paragraphs of a parsed page (head, script, style, link, meta and template dropped).
std::vector<JusTextParagraph> justext_paragraphs(const HtmlDocument& document, size_t max_depth);

// Classifies in place. Without a stop-word list (a language Snowball does not cover) both
// stop-word thresholds count as met, so length and link density decide alone.
void justext_classify(std::vector<JusTextParagraph>& paragraphs, const StopWords* stop_words,
                      const JusTextOptions& options);

}  // namespace winnow
