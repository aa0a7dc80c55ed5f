#pragma once
// HtmlExtractor: raw HTML bytes in, main text out. Decodes the bytes to UTF-8 (charset.h),
// parses with winnow's scanner, libxml2 or gumbo (html_document.h) and extracts with jusText
// or the trafilatura-class extractor (main content only; the language is guessed with CLD2 to
// pick the stop-word list) or as plain visible text. Paragraphs are separated by blank lines. Thread-safe: extract() keeps no shared
// state.
#include <string>
#include <string_view>

#include "text/charset.h"
#include "text/html_document.h"
#include "text/justext.h"
#include "text/stop_words.h"
#include "text/trafilatura.h"

namespace winnow {

enum class HtmlAlgorithm { kJusText, kTrafilatura, kPlain };

struct HtmlExtractOptions {
  HtmlAlgorithm algorithm = HtmlAlgorithm::kJusText;
  // The scanner by default: one pass, about twice as fast as libxml2 with no tree and eight
  // times gumbo here, and the same text as libxml2 (the parser lxml, jusText and so NeMo use)
  // on every HTML page a Debian install has (906, bench/README.md).
  HtmlParser parser = HtmlParser::kScanner;
  JusTextOptions justext;
  TrafilaturaOptions trafilatura;
  std::string language;  // a fixed ISO 639-1 code for the stop words; empty: detect (CLD2)
  size_t max_input_bytes = 8 << 20;  // longer pages are cut (at a UTF-8 boundary) first
  size_t max_depth = 1000;           // deeper elements count for their text only
  // How much paragraph text CLD2 reads to pick the stop words (long paragraphs first).
  size_t language_sample_bytes = 16 << 10;
};

struct HtmlExtraction {
  std::string text;
  std::string charset;  // as decode_html chose it
  CharsetSource charset_source = CharsetSource::kDefault;
  std::string language;  // the stop-word language ("un" when unknown); not for plain
  bool has_stop_words = false;
  bool truncated = false;  // the input was cut to max_input_bytes
  size_t paragraphs = 0;   // found
  size_t kept_paragraphs = 0;
};

class HtmlExtractor {
 public:
  // `stop_words` must outlive the extractor; it may be empty (no list for any language).
  HtmlExtractor(HtmlExtractOptions options, const StopWordTable& stop_words);

  // `bytes`: the page; `content_type`: its HTTP Content-Type ("" if unknown). With
  // `is_utf8` the bytes are already UTF-8 text (say, from JSONL) and are not decoded again.
  HtmlExtraction extract(std::string_view bytes, std::string_view content_type, bool is_utf8) const;

  const HtmlExtractOptions& options() const { return options_; }

 private:
  void extract_trafilatura(const HtmlDocument& document, HtmlExtraction& result) const;
  std::string detect_language(std::string_view sample) const;

  HtmlExtractOptions options_;
  const StopWordTable& stop_words_;
};

}  // namespace winnow
