// NeMo Curator's code filters: python_comment_to_code, general_comment_to_code,
// number_of_lines_of_code, xml_header, alpha and html_boilerplate (filters.md). NeMo's
// TokenizerFertilityFilter needs a SentencePiece model: it is tokenizer_fertility, in
// tokenizer_filters.cpp.
#include "core/utf8.h"
#include "stages/text_quality/quality_sets.h"
#include "stages/text_quality/score_filter.h"
#include "text/code_comments.h"
#include "text/html_text.h"
#include "text/python_text.h"

namespace winnow {

namespace {

Status check_range(const StageParams& p, const std::string& lo, const std::string& hi) {
  WINNOW_RETURN_IF_ERROR(check_non_negative(p, lo));
  if (p.get_float(hi) < p.get_float(lo)) return p.error(hi, "must be at least " + lo);
  return Status::ok();
}

StageSpec python_comment_to_code_spec() {
  return score_filter_spec(
      "python_comment_to_code",
      "NeMo PythonCommentToCodeFilter: keeps Python files whose comment and docstring code "
      "points / code points lie in [min, max].",
      "python_comment_ratio",
      {{"min_comment_to_code_ratio", ParamType::kFloat, "0.01", "least ratio kept"},
       {"max_comment_to_code_ratio", ParamType::kFloat, "0.85", "most ratio kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(
            check_range(p, "min_comment_to_code_ratio", "max_comment_to_code_ratio"));
        // An empty file scores 0 (NeMo's ratio would divide by zero).
        return ScoreRule{[](DocSegments& d) {
                           double chars = d.chars().chars;
                           return chars > 0 ? python_comment_chars(d.text()) / chars : 0.0;
                         },
                         p.get_float("min_comment_to_code_ratio"),
                         p.get_float("max_comment_to_code_ratio")};
      });
}

StageSpec general_comment_to_code_spec() {
  return score_filter_spec(
      "general_comment_to_code",
      "NeMo GeneralCommentToCodeFilter: keeps files whose comment code points / code points lie "
      "in [min, max]; `language` is the MIME type NeMo takes (text/x-c, text/x-c++, "
      "text/x-java, application/javascript, text/x-go, text/x-python, text/x-ruby, "
      "text/x-shellscript, text/html, text/xml).",
      "comment_ratio",
      {{"language", ParamType::kString, "", "MIME type of the source", true},
       {"min_comment_to_code_ratio", ParamType::kFloat, "0.01", "least ratio kept"},
       {"max_comment_to_code_ratio", ParamType::kFloat, "0.85", "most ratio kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(
            check_range(p, "min_comment_to_code_ratio", "max_comment_to_code_ratio"));
        const std::string& mime = p.get_string("language");
        CommentSyntax syntax;
        if (mime == "text/x-c" || mime == "text/x-c++" || mime == "text/x-java" ||
            mime == "application/javascript" || mime == "text/x-javascript" ||
            mime == "text/x-go") {
          syntax = CommentSyntax::kC;
        } else if (mime == "text/x-python" || mime == "text/x-ruby" ||
                   mime == "text/x-shellscript" || mime == "text/x-sh") {
          syntax = CommentSyntax::kHash;
        } else if (mime == "text/html" || mime == "text/xml") {
          syntax = CommentSyntax::kHtml;
        } else {
          return p.error("language", "unknown MIME type '" + mime + "'");
        }
        return ScoreRule{[syntax](DocSegments& d) {
                           double chars = d.chars().chars;
                           return chars > 0 ? comment_chars(d.text(), syntax) / chars : 0.0;
                         },
                         p.get_float("min_comment_to_code_ratio"),
                         p.get_float("max_comment_to_code_ratio")};
      });
}

StageSpec number_of_lines_of_code_spec() {
  return score_filter_spec(
      "number_of_lines_of_code",
      "NeMo NumberOfLinesOfCodeFilter: keeps files with min_lines to max_lines lines "
      "(str.splitlines()).",
      "num_lines",
      {{"min_lines", ParamType::kInt, "10", "fewest lines kept"},
       {"max_lines", ParamType::kInt, "20000", "most lines kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        if (p.get_int("min_lines") < 0) return p.error("min_lines", "must be 0 or more");
        if (p.get_int("max_lines") < p.get_int("min_lines"))
          return p.error("max_lines", "must be at least min_lines");
        return ScoreRule{[](DocSegments& d) {
                           thread_local std::vector<std::string_view> lines;
                           python_splitlines(d.text(), lines);
                           return static_cast<double>(lines.size());
                         },
                         static_cast<double>(p.get_int("min_lines")),
                         static_cast<double>(p.get_int("max_lines"))};
      });
}

StageSpec xml_header_spec() {
  return score_filter_spec(
      "xml_header",
      "NeMo XMLHeaderFilter: drops files with \"<?xml version=\" in their first "
      "char_prefix_search_length code points (score 1).",
      "xml_header", {{"char_prefix_search_length", ParamType::kInt, "100", "code points searched"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        int64_t prefix = p.get_int("char_prefix_search_length");
        if (prefix < 0) return p.error("char_prefix_search_length", "must be 0 or more");
        return ScoreRule{
            [prefix](DocSegments& d) {
              std::string_view t = d.text();
              // The byte length of the first `prefix` code points.
              size_t bytes = 0;
              int64_t cps = 0;
              while (bytes < t.size() && cps < prefix) {
                ++bytes;
                while (bytes < t.size() && is_utf8_continuation(t[bytes])) ++bytes;
                ++cps;
              }
              return t.substr(0, bytes).find("<?xml version=") != std::string_view::npos ? 1.0
                                                                                         : 0.0;
            },
            -1.0, 0.0};
      });
}

StageSpec alpha_spec() {
  return score_filter_spec(
      "alpha",
      "NeMo AlphaFilter: keeps files where at least min_alpha_ratio of the code points are "
      "letters (str.isalpha()).",
      "alpha_filter",
      {{"min_alpha_ratio", ParamType::kFloat, "0.25", "least letters / code points kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "min_alpha_ratio"));
        return ScoreRule{[](DocSegments& d) {
                           const CharCounts& c = d.chars();
                           return c.chars ? static_cast<double>(c.letters) / c.chars : 0.0;
                         },
                         p.get_float("min_alpha_ratio")};
      });
}

StageSpec html_boilerplate_spec() {
  return score_filter_spec(
      "html_boilerplate",
      "NeMo HTMLBoilerplateFilter: keeps HTML files whose visible text (script and style "
      "removed) is at least min_lang_content_ratio of the file and at least "
      "min_lang_content_num_chars code points (score 0 when shorter).",
      "html_boilerplate",
      {{"min_lang_content_ratio", ParamType::kFloat, "0.2", "least visible text / code points"},
       {"min_lang_content_num_chars", ParamType::kInt, "100", "fewest visible code points"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "min_lang_content_ratio"));
        int64_t min_chars = p.get_int("min_lang_content_num_chars");
        if (min_chars < 0) return p.error("min_lang_content_num_chars", "must be 0 or more");
        return ScoreRule{[min_chars](DocSegments& d) {
                           double chars = d.chars().chars;
                           if (chars == 0) return 0.0;
                           auto visible = static_cast<int64_t>(html_visible_text_chars(d.text()));
                           if (visible < min_chars) return 0.0;
                           return static_cast<double>(visible) / chars;
                         },
                         p.get_float("min_lang_content_ratio")};
      });
}

}  // namespace

void add_code_filters(StageRegistry& registry) {
  registry.add(python_comment_to_code_spec());
  registry.add(general_comment_to_code_spec());
  registry.add(number_of_lines_of_code_spec());
  registry.add(xml_header_spec());
  registry.add(alpha_spec());
  registry.add(html_boilerplate_spec());
}

}  // namespace winnow
