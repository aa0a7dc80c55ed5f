#pragma once
// A trafilatura-class main-content extractor (NeMo Curator's TrafilaturaExtractor calls
// trafilatura; this is winnow's own, written from trafilatura's documented approach, not a
// port of its code):
// 1. Elements that never hold content are cut out; those whose class, id or role names page
//    furniture (navigation, footers, sharing rows, comment sections, cookie banners, related
//    links, sidebars, ads) are left out unless that would leave under a seventh of the text
//    (trafilatura_rules.h).
// 2. The main content's container is sought by name, from the surest to the vaguest (an
//    article-body class, <article>, a story or post class, a content id or class, <main> or a
//    "main" class); the first one whose extraction holds more than one block wins.
// 3. Inside it, containers and paragraphs dense in links are left out (trafilatura's link
//    density tests: short blocks mostly made of links or of short links, link farms, link
//    tables); paragraphs, headings, list items, table cells, code and quotes are kept, loose
//    text in <div>s only when the <p> text is short.
// 4. When the result is shorter than min_extracted_size, the whole page is tried the same way,
//    then a baseline of its paragraph-like blocks; the longest wins.
// 5. Trailing headings go; a block longer than min_duplcheck_size seen more than
//    max_repetitions times before on the page goes; a result shorter than min_output_size is
//    empty.
// Differences from trafilatura, on purpose: comments are never extracted (NeMo's call leaves
// trafilatura's include_comments on; here comment sections are boilerplate), the duplicate
// count is per page (trafilatura's cache lives across pages, which makes the output depend on
// the order documents arrive in), and there is no external fallback (readability, jusText:
// the jusText-class extractor is `algorithm: justext`).
#include <cstddef>
#include <string>
#include <vector>

#include "text/stop_words.h"
#include "text/trafilatura_page.h"

namespace winnow {

struct TrafilaturaOptions {  // NeMo Curator's TrafilaturaExtractor defaults
  // Characters under which the page-wide and baseline fallbacks are tried.
  size_t min_extracted_size = 250;
  // Characters under which the result is empty.
  size_t min_output_size = 1;
  // Blocks longer than this (code points) are checked for repetition.
  size_t min_duplcheck_size = 100;
  size_t max_repetitions = 2;
  // More kept blocks than this: no result (0: no limit; NeMo's None).
  size_t max_tree_size = 0;
  // NeMo's filter after extraction: a paragraph stays when at least this share of its words
  // (str.split()) are stop words, compared as written (NeMo does not lowercase); 0: off.
  double required_stopword_density = 0.32;
};

// Where the kept text came from.
enum class TrafilaturaSource { kNone, kCandidate, kWholePage, kBaseline };

struct TrafilaturaResult {
  std::vector<std::string> paragraphs;
  TrafilaturaSource source = TrafilaturaSource::kNone;
  uint32_t container = 0;  // the element used (0: the whole page)
};

TrafilaturaResult trafilatura_extract(const TrafilaturaPage& page,
                                      const TrafilaturaOptions& options);

// NeMo's stop-word filter (see required_stopword_density), in place. `stop_words` null or a
// non-spaced language (th, zh, ja, ko: NeMo skips the filter for those): nothing changes.
void keep_stopword_dense(std::vector<std::string>& paragraphs, const StopWords* stop_words,
                         std::string_view language, double required_density);

}  // namespace winnow
