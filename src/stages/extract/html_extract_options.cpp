#include "stages/extract/html_extract_options.h"

#include <utility>

namespace winnow {

namespace {

// jusText's thresholds and the container pass, checked.
Status read_justext_options(const StageParams& p, JusTextOptions& o) {
  auto at_least_zero = [&](const char* key, size_t& out) -> Status {
    int64_t v = p.get_int(key);
    if (v < 0) return p.error(key, "must be 0 or more");
    out = static_cast<size_t>(v);
    return Status::ok();
  };
  WINNOW_RETURN_IF_ERROR(at_least_zero("length_low", o.length_low));
  WINNOW_RETURN_IF_ERROR(at_least_zero("length_high", o.length_high));
  if (o.length_high < o.length_low) return p.error("length_high", "must be at least length_low");
  WINNOW_RETURN_IF_ERROR(at_least_zero("max_heading_distance", o.max_heading_distance));
  for (const char* key : {"stopwords_low", "stopwords_high", "max_link_density"}) {
    double d = p.get_float(key);
    if (!(d >= 0.0 && d <= 1.0)) return p.error(key, "must lie between 0 and 1");
  }
  o.stopwords_low = p.get_float("stopwords_low");
  o.stopwords_high = p.get_float("stopwords_high");
  if (o.stopwords_high < o.stopwords_low) {
    return p.error("stopwords_high", "must be at least stopwords_low");
  }
  o.max_link_density = p.get_float("max_link_density");
  o.no_headings = p.get_bool("no_headings");
  o.code_in_context = p.get_bool("code_in_context");
  o.container = p.get_bool("container");
  o.container_share = p.get_float("container_share");
  if (!(o.container_share > 0.5 && o.container_share <= 1.0)) {
    return p.error("container_share", "must be above 0.5 and at most 1");
  }
  o.container_max_link_density = p.get_float("container_max_link_density");
  if (!(o.container_max_link_density >= 0.0 && o.container_max_link_density <= 1.0)) {
    return p.error("container_max_link_density", "must lie between 0 and 1");
  }
  return Status::ok();
}

// NeMo's TrafilaturaExtractor parameters, checked.
Status read_trafilatura_options(const StageParams& p, TrafilaturaOptions& o) {
  double density = p.get_float("required_stopword_density");
  if (!(density >= 0.0 && density <= 1.0)) {
    return p.error("required_stopword_density", "must lie between 0 and 1");
  }
  o.required_stopword_density = density;
  for (auto [key, out] : {std::pair{"min_extracted_size", &o.min_extracted_size},
                          std::pair{"min_output_size", &o.min_output_size},
                          std::pair{"min_duplcheck_size", &o.min_duplcheck_size},
                          std::pair{"max_repetitions", &o.max_repetitions},
                          std::pair{"max_tree_size", &o.max_tree_size}}) {
    int64_t v = p.get_int(key);
    if (v < 0) return p.error(key, "must be 0 or more");
    *out = static_cast<size_t>(v);
  }
  return Status::ok();
}

}  // namespace

// The algorithm, parser, language and page bounds, checked.
Status read_extract_options(const StageParams& p, HtmlExtractOptions& o) {
  auto algorithm = p.get_choice<HtmlAlgorithm>("algorithm",
                                               {{"justext", HtmlAlgorithm::kJusText},
                                                {"trafilatura", HtmlAlgorithm::kTrafilatura},
                                                {"plain", HtmlAlgorithm::kPlain}});
  if (!algorithm.is_ok()) return algorithm.status();
  o.algorithm = *algorithm;
  if (auto parser = parse_html_parser_name(p.get_string("parser"))) {
    o.parser = *parser;
  } else {
    return p.error("parser",
                   "must be libxml2, scanner or gumbo; got '" + p.get_string("parser") + "'");
  }
  WINNOW_RETURN_IF_ERROR(read_justext_options(p, o.justext));
  WINNOW_RETURN_IF_ERROR(read_trafilatura_options(p, o.trafilatura));
  o.language = p.get_string("language");
  if (p.get_int("max_input_bytes") < 1024) {
    return p.error("max_input_bytes", "must be at least 1024");
  }
  o.max_input_bytes = static_cast<size_t>(p.get_int("max_input_bytes"));
  if (p.get_int("max_depth") < 1) return p.error("max_depth", "must be at least 1");
  o.max_depth = static_cast<size_t>(p.get_int("max_depth"));
  return Status::ok();
}

}  // namespace winnow
