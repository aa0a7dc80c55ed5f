// html_extract: replaces a document's HTML with its main text. The HTML is a WARC payload
// (raw bytes: decoded with the HTTP header's charset, a <meta> declaration or detection) or a
// UTF-8 text field from JSONL. `algorithm: justext` (default) keeps main content only, with
// NeMo Curator's jusText defaults; `trafilatura` keeps main content with winnow's
// trafilatura-class extractor and NeMo's TrafilaturaExtractor defaults (text/trafilatura.h);
// `plain` keeps all visible text. The charset used is recorded
// in a `charset` field. Beyond NeMo (opt-in, off by default so that NeMo users get NeMo's
// decisions): frequency-derived stop words, code_in_context and the container pass. Documents left
// with no text are dropped (no_text); with justext or trafilatura, pages whose language CLD2 cannot tell are
// dropped (unknown_language) unless told otherwise. A dropped page with nothing extracted keeps
// its page as its text, so that rejected/ shows what had nothing to keep.
//
// `max_document_seconds` bounds one page's extraction with `parser: gumbo`, the one backend
// whose time grows faster than the page (the square of the nesting depth): a page past it is
// dropped (too_slow), its extraction left to finish on its own thread (core/watched_call.h).
// The scanner and libxml2 are linear in the page, which max_input_bytes bounds, and run
// inline. The limit is the one decision that can depend on the machine's speed; the default
// (60 s; gumbo takes about 1 ms for an ordinary page) is far from any real page.
#include <simdjson.h>

#include <chrono>
#include <memory>

#include "core/watched_call.h"
#include "io/wide_json_numbers.h"
#include "stages/builtin_stages.h"
#include "stages/extract/html_extract_options.h"
#include "text/html_extractor.h"

namespace winnow {

namespace {

// The extractor and the stop words it reads, shared with any extraction left running past its
// limit: it may outlive the stage.
struct SharedExtractor {
  SharedExtractor(HtmlExtractOptions options, std::shared_ptr<const StopWordTable> words)
      : stop_words(std::move(words)), extractor(std::move(options), *stop_words) {}
  std::shared_ptr<const StopWordTable> stop_words;
  HtmlExtractor extractor;
};

class HtmlExtractStage final : public Stage {
 public:
  HtmlExtractStage(HtmlExtractOptions options, std::shared_ptr<const StopWordTable> stop_words,
                   std::string content_type_field, bool drop_unknown_language, bool annotate,
                   double max_document_seconds, StageContext& context)
      : shared_(std::make_shared<const SharedExtractor>(std::move(options), std::move(stop_words))),
        extractor_(shared_->extractor),
        content_type_field_(std::move(content_type_field)),
        drop_unknown_language_(drop_unknown_language),
        annotate_(annotate),
        watched_(max_document_seconds > 0 && extractor_.options().parser == HtmlParser::kGumbo),
        limit_(std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::duration<double>(max_document_seconds))),
        language_column_(context.stage_name() + "_language"),
        no_text_(context.declare_reason("no_text")),
        unknown_language_(context.declare_reason("unknown_language")),
        too_slow_(context.declare_reason("too_slow")) {}

  Status process(DocBatch& batch) override {
    AnnotationColumn& charset = batch.annotation("charset", AnnotationType::kString);
    AnnotationColumn* language =
        annotate_ ? &batch.annotation(language_column_, AnnotationType::kString) : nullptr;
    // jusText and trafilatura pick stop words by language; plain has none.
    bool justext = extractor_.options().algorithm != HtmlAlgorithm::kPlain;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      // Raw payloads (WARC) are bytes in some charset; JSONL text is UTF-8 already.
      bool raw = batch.text_unchecked(i);
      std::string content_type = raw ? content_type_of(batch.record(i)) : std::string();
      std::optional<HtmlExtraction> extracted = extract(batch.text(i), content_type, raw);
      if (!extracted) {
        batch.drop(i, too_slow_, limit_.count() / 1e9);  // the page stays itself in rejected/
        continue;
      }
      HtmlExtraction& result = *extracted;
      charset.set_string(i, result.charset);
      if (language && justext) language->set_string(i, result.language);
      // A page with nothing extracted stays itself, so that rejected/ shows why.
      if (!result.text.empty()) batch.set_text(i, result.text);
      if (justext && drop_unknown_language_ && !result.language.empty() &&
          result.language == "un" && extractor_.options().language.empty()) {
        batch.drop(i, unknown_language_);
      } else if (result.text.empty()) {
        batch.drop(i, no_text_, static_cast<double>(result.paragraphs));
      }
    }
    return Status::ok();
  }

 private:
  // The page's extraction; nullopt when it ran past the limit.
  std::optional<HtmlExtraction> extract(std::string_view page, const std::string& content_type,
                                        bool raw) const {
    if (!watched_) return extractor_.extract(page, content_type, !raw);
    thread_local WatchedCaller caller;
    // Copies and a shared_ptr: an abandoned extraction owns all it reads.
    return caller.run<HtmlExtraction>(
        [shared = shared_, page = std::string(page), content_type, raw] {
          return shared->extractor.extract(page, content_type, !raw);
        },
        limit_);
  }

  std::string content_type_of(std::string_view record) const {
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element root;
    std::string_view value;
    // Records are padded (kRecordPadding), so they parse in place.
    if (parse_record(parser, record, root)) return {};
    if (root[content_type_field_].get(value)) return {};
    return std::string(value);
  }

  std::shared_ptr<const SharedExtractor> shared_;
  const HtmlExtractor& extractor_;
  std::string content_type_field_;
  bool drop_unknown_language_;
  bool annotate_;
  bool watched_;  // extractions run under the time limit
  std::chrono::nanoseconds limit_;
  std::string language_column_;
  ReasonId no_text_, unknown_language_, too_slow_;
};

}  // namespace

namespace {

// The stop-word lists the options need: loaded once, shared by the stage's workers.
Result<std::shared_ptr<const StopWordTable>> load_stop_words(const StageParams& p,
                                                             const HtmlExtractOptions& o) {
  StopWordSource source;
  if (!parse_stop_word_source(p.get_string("stop_words"), source)) {
    return p.error("stop_words",
                   "must be snowball, frequency or both; got '" + p.get_string("stop_words") + "'");
  }
  auto table = StopWordTable::load(p.get_string("stopwords_dir"), source);
  if (!table.is_ok()) return p.error("stopwords_dir", table.status().message());
  bool needs_lists = o.algorithm == HtmlAlgorithm::kJusText ||
                     (o.algorithm == HtmlAlgorithm::kTrafilatura &&
                      o.trafilatura.required_stopword_density > 0);
  if (needs_lists && table->languages() == 0 && source == StopWordSource::kSnowball) {
    return p.error("stopwords_dir", "no Lingua::StopWords lists (XX.pm) in '" +
                                        p.get_string("stopwords_dir") +
                                        "' (Debian: liblingua-stopwords-perl)");
  }
  if (!o.language.empty() && needs_lists && !table->find(o.language)) {
    return p.error("language", "no stop-word list for '" + o.language + "'");
  }
  return std::make_shared<const StopWordTable>(std::move(table).value());
}

Result<std::unique_ptr<Stage>> create_html_extract(const StageParams& p, StageContext& context) {
  HtmlExtractOptions o;
  WINNOW_RETURN_IF_ERROR(read_extract_options(p, o));
  double max_document_seconds = p.get_float("max_document_seconds");
  if (!(max_document_seconds >= 0 && max_document_seconds <= 86400)) {
    return p.error("max_document_seconds", "must be 0 (no limit) to 86400");
  }
  auto stop_words = load_stop_words(p, o);
  if (!stop_words.is_ok()) return stop_words.status();
  return std::unique_ptr<Stage>(new HtmlExtractStage(
      std::move(o), std::move(stop_words).value(), p.get_string("content_type_field"),
      p.get_bool("drop_unknown_language"), p.get_bool("annotate"), max_document_seconds, context));
}

}  // namespace

StageSpec html_extract_spec() {
  StageSpec spec{
      "html_extract",
      "Replaces HTML (a WARC payload or a text field) with its main text (jusText or "
      "trafilatura-class) or all visible text (plain); records the charset used.",
      {
          {"algorithm", ParamType::kString, "justext",
           "justext (main content, NeMo's JusTextExtractor), trafilatura (main content by "
           "container names and link density, NeMo's TrafilaturaExtractor) or plain"},
          {"parser", ParamType::kString, "scanner",
           "scanner (winnow's one-pass tag scanner, fastest; same text as libxml2 on real "
           "pages), libxml2 (lxml's parser, as jusText and NeMo use; streamed, no tree) or "
           "gumbo (the HTML5 tree, as browsers build it)"},
          {"length_low", ParamType::kInt, "70", "justext: shorter paragraphs are short"},
          {"length_high", ParamType::kInt, "200", "justext: longer paragraphs may be good"},
          {"stopwords_low", ParamType::kFloat, "0.30",
           "justext: stop-word density of a near-good paragraph"},
          {"stopwords_high", ParamType::kFloat, "0.32",
           "justext: stop-word density of a good paragraph"},
          {"max_link_density", ParamType::kFloat, "0.2",
           "justext: paragraphs with more link text are bad"},
          {"max_heading_distance", ParamType::kInt, "200",
           "justext: characters between a heading and good text"},
          {"no_headings", ParamType::kBool, "false", "justext: treat headings as paragraphs"},
          {"code_in_context", ParamType::kBool, "false",
           "justext (not in NeMo): <pre> blocks start near-good, kept when among good text"},
          {"container", ParamType::kBool, "false",
           "justext (not in NeMo): also keep what jusText rejected inside the element holding "
           "most good text, unless clearly boilerplate (see container_*)"},
          {"container_share", ParamType::kFloat, "0.8",
           "justext container: share of the good characters the container must hold (0.5-1]"},
          {"container_max_link_density", ParamType::kFloat, "0.5",
           "justext container: paragraphs with more link text stay out"},
          {"required_stopword_density", ParamType::kFloat, "0.32",
           "trafilatura: a paragraph stays when this share of its words are stop words (as "
           "written, as NeMo compares them); 0: no filter"},
          {"min_extracted_size", ParamType::kInt, "250",
           "trafilatura: characters under which the whole page, then a baseline, are tried"},
          {"min_output_size", ParamType::kInt, "1",
           "trafilatura: characters under which the page has no text"},
          {"min_duplcheck_size", ParamType::kInt, "100",
           "trafilatura: paragraphs longer than this are checked for repetition"},
          {"max_repetitions", ParamType::kInt, "2",
           "trafilatura: a checked paragraph seen more often before on the page goes"},
          {"max_tree_size", ParamType::kInt, "0",
           "trafilatura: pages with more kept blocks have no text; 0: no limit"},
          {"stop_words", ParamType::kString, "snowball",
           "justext, trafilatura: snowball (Lingua::StopWords), frequency (compiled-in lists derived by word "
           "frequency, scripts/make_stop_words) or both"},
          {"language", ParamType::kString, "",
           "justext, trafilatura: stop-word language (ISO 639-1); empty: detect with CLD2"},
          {"stopwords_dir", ParamType::kString, std::string(kDefaultStopWordsDir),
           "folder of Lingua::StopWords XX.pm modules (Snowball lists)"},
          {"drop_unknown_language", ParamType::kBool, "true",
           "justext, trafilatura: drop pages whose language CLD2 cannot tell"},
          {"content_type_field", ParamType::kString, "content_type",
           "record field holding the HTTP Content-Type (its charset is tried first)"},
          {"max_input_bytes", ParamType::kInt, "8388608",
           "longer pages are cut to this many bytes before parsing"},
          {"max_depth", ParamType::kInt, "1000",
           "elements nested deeper count for their text only"},
          {"max_document_seconds", ParamType::kFloat, "60",
           "parser gumbo: a page whose extraction takes longer is dropped (too_slow) and left "
           "to finish on its own thread; 0: no limit (scanner and libxml2 are linear: no limit "
           "needed)"},
          {"annotate", ParamType::kBool, "false",
           "justext, trafilatura: record the stop-word language in <stage>_language"},
      },
      create_html_extract,
  };
  spec.record_fields = [](const StageParams& p) {
    return RecordFields::of({p.get_string("content_type_field")});
  };
  return spec;
}

}  // namespace winnow
