#include "text/html_extractor.h"

#include <algorithm>

#include "core/utf8.h"
#include "text/cld2_language.h"
#include "text/html_document.h"
#include "text/html_plain_text.h"

namespace winnow {

namespace {

// What CLD2 reads to pick the stop-word list: the paragraphs' text, not the markup, and of it
// first the paragraphs long enough to be judged by their stop words (>= length_low), in page
// order, then the short ones, up to `limit` bytes. Long navigation menus (short paragraphs,
// often in English on pages in other languages) then cannot outvote the content, and CLD2 no
// longer reads whole pages (it was a fifth of the extraction's time). With 16 KB (the
// default) it picks, on all 906 HTML pages of this install, the language CLD2 picks from all
// of the text; 8 KB missed 3 pages, 4 KB 14.
std::string language_sample(const std::vector<JusTextParagraph>& paragraphs,
                            const JusTextOptions& options, size_t limit) {
  std::string sample;
  for (bool long_ones : {true, false}) {
    for (const auto& p : paragraphs) {
      if (sample.size() >= limit) return sample;
      if ((p.length >= options.length_low) != long_ones) continue;
      sample += p.text;
      sample += '\n';
    }
  }
  return sample;
}

}  // namespace

HtmlExtractor::HtmlExtractor(HtmlExtractOptions options, const StopWordTable& stop_words)
    : options_(std::move(options)), stop_words_(stop_words) {}

HtmlExtraction HtmlExtractor::extract(std::string_view bytes, std::string_view content_type,
                                      bool is_utf8) const {
  HtmlExtraction result;
  // Cut the raw bytes first (bounded decoding), then again after decoding, which can grow
  // single-byte text up to three times.
  if (bytes.size() > options_.max_input_bytes) {
    bytes = bytes.substr(0, options_.max_input_bytes);
    result.truncated = true;
  }
  std::string decoded_storage;
  std::string_view html;
  if (is_utf8) {
    html = utf8_prefix(bytes, options_.max_input_bytes);
    result.charset = "utf-8";
    result.charset_source = CharsetSource::kDefault;
  } else {
    DecodedHtml decoded = decode_html(bytes, content_type);
    decoded_storage = std::move(decoded.text);
    html = decoded_storage;
    result.charset = std::move(decoded.charset);
    result.charset_source = decoded.source;
  }
  if (html.size() > options_.max_input_bytes) {
    html = utf8_prefix(html, options_.max_input_bytes);
    result.truncated = true;
  }

  HtmlDocument document(html, options_.max_depth, options_.parser);
  if (options_.algorithm == HtmlAlgorithm::kPlain) {
    result.text = html_plain_text(document, options_.max_depth);
    return result;
  }
  if (options_.algorithm == HtmlAlgorithm::kTrafilatura) {
    extract_trafilatura(document, result);
    return result;
  }

  std::vector<JusTextElement> elements;
  std::vector<JusTextParagraph> paragraphs = justext_paragraphs(
      document, options_.max_depth, options_.justext.container ? &elements : nullptr);
  result.paragraphs = paragraphs.size();
  result.language =
      options_.language.empty()
          ? detect_language(
                language_sample(paragraphs, options_.justext, options_.language_sample_bytes))
          : options_.language;
  const StopWords* stop_words = stop_words_.find(result.language);
  result.has_stop_words = stop_words != nullptr;
  justext_classify(paragraphs, stop_words, options_.justext);
  if (options_.justext.container) justext_keep_container(paragraphs, elements, options_.justext);
  for (const auto& p : paragraphs) {
    if (p.final_class != JusTextClass::kGood) continue;
    if (!result.text.empty()) result.text += "\n\n";
    result.text += p.text;
    ++result.kept_paragraphs;
  }
  return result;
}

std::string HtmlExtractor::detect_language(std::string_view sample) const {
  if (!options_.language.empty()) return options_.language;
  return detect_language_cld2(sample, true).code;
}

// The main content's paragraphs, then NeMo's stop-word filter in the language CLD2 reads in
// them (the longest first, as for jusText).
void HtmlExtractor::extract_trafilatura(const HtmlDocument& document,
                                        HtmlExtraction& result) const {
  TrafilaturaPage page = trafilatura_page(document, options_.max_depth);
  result.paragraphs = page.blocks.size();
  TrafilaturaResult extracted = trafilatura_extract(page, options_.trafilatura);
  std::vector<std::string>& paragraphs = extracted.paragraphs;
  if (paragraphs.empty()) return;  // no language to tell: the page is dropped for no text
  std::string sample;
  if (options_.language.empty()) {
    std::vector<const std::string*> longest;
    for (const auto& p : paragraphs) longest.push_back(&p);
    std::stable_sort(longest.begin(), longest.end(),
                     [](const std::string* a, const std::string* b) { return a->size() > b->size(); });
    for (const std::string* p : longest) {
      if (sample.size() >= options_.language_sample_bytes) break;
      sample += *p;
      sample += '\n';
    }
  }
  result.language = detect_language(sample);
  const StopWords* stop_words = stop_words_.find(result.language);
  result.has_stop_words = stop_words != nullptr;
  keep_stopword_dense(paragraphs, stop_words, result.language,
                      options_.trafilatura.required_stopword_density);
  for (const auto& p : paragraphs) {
    if (!result.text.empty()) result.text += "\n\n";
    result.text += p;
  }
  result.kept_paragraphs = paragraphs.size();
}

}  // namespace winnow
