// NeMo Curator's character-ratio filters: NonAlphaNumeric, Numbers, Urls, WhiteSpace,
// Parentheses and PornographicUrls. Every ratio is over len(text) in code points and scores 1.0
// for an empty text (filters.md), so an empty document is dropped by each "max ratio" filter.
// The counts come from one pass over the text shared by the chain (DocSegments::chars).
#include <algorithm>
#include <cmath>

#include "core/ascii.h"
#include "stages/text_quality/nemo_filters.h"
#include "stages/text_quality/score_filter.h"
#include "text/language_charset.h"
#include "text/python_text.h"

namespace winnow {

namespace {

bool is_url_char(char c) {
  if (is_ascii_alnum(c)) return true;
  switch (c) {
    case '$':
    case '-':
    case '_':
    case '@':
    case '.':
    case '&':
    case '+':
    case '/':
    case ':':
    case '=':
    case '?':
    case '#':
    case '~':
    case '!':
    case '*':
    case '(':
    case ')':
    case ',':
      return true;
    default:
      return false;
  }
}

// The URLs NeMo's regex finds, left to right without overlap: `https?://` followed by one or
// more URL characters (filters.md lists them: letters, digits, $-_@.&+/:=?#~!*(), — read as
// single characters) or %XX escapes. Every matched character is ASCII, so bytes = code points.
// Calls on_url(url) for each.
// The scan looks for "://" (rare in text, found 16 bytes at a time by find_bytes) rather than
// "http" (whose 'h' is common): every match has its "://" right after "http" or "https", and a
// "://" has at most one of the two before it, so the matches are found in the same order.
template <typename OnUrl>
void for_each_nemo_url(std::string_view text, OnUrl&& on_url) {
  size_t pos = 0;  // where the next match may start
  size_t sep = 4;  // where to look for the next "://"
  while ((sep = find_bytes(text, "://", sep)) != std::string_view::npos) {
    size_t start = sep - 4;
    if (sep >= 5 && text.compare(sep - 5, 5, "https") == 0) {
      start = sep - 5;
    } else if (text.compare(sep - 4, 4, "http") != 0) {
      ++sep;
      continue;
    }
    size_t p = sep + 3;
    if (start < pos) {  // inside the previous match (it ended on its URL characters)
      sep = p;
      continue;
    }
    const size_t body = p;
    while (p < text.size()) {
      if (is_url_char(text[p])) {
        ++p;
      } else if (text[p] == '%' && p + 2 < text.size() && is_ascii_hex_digit(text[p + 1]) &&
                 is_ascii_hex_digit(text[p + 2])) {
        p += 3;
      } else {
        break;
      }
    }
    if (p == body) {
      sep = p;
      continue;
    }
    on_url(text.substr(start, p - start));
    pos = p;
    sep = std::max(p, pos + 4);
  }
}

StageSpec non_alpha_numeric_spec() {
  return score_filter_spec(
      "non_alpha_numeric",
      "NeMo NonAlphaNumericFilter: drops documents whose share of code points outside "
      "[a-zA-Z0-9\\n?!,.] is above the cutoff (English text).",
      "alpha_numeric",
      {{"max_non_alpha_numeric_to_text_ratio", ParamType::kFloat, "0.25",
        "most non-alphanumeric code points / code points kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_non_alpha_numeric_to_text_ratio"));
        return ScoreRule{[](DocSegments& d) {
                           const CharCounts& c = d.chars();
                           return ratio_or_one(c.chars - c.nemo_alnum, c.chars);
                         },
                         -1.0, p.get_float("max_non_alpha_numeric_to_text_ratio")};
      });
}

StageSpec numbers_spec() {
  return score_filter_spec(
      "numbers",
      "NeMo NumbersFilter: drops documents whose share of digits [0-9] is above the cutoff.",
      "numbers_ratio",
      {{"max_number_to_text_ratio", ParamType::kFloat, "0.15", "most digits / code points kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_number_to_text_ratio"));
        return ScoreRule{[](DocSegments& d) {
                           const CharCounts& c = d.chars();
                           return ratio_or_one(c.digits, c.chars);
                         },
                         -1.0, p.get_float("max_number_to_text_ratio")};
      });
}

StageSpec urls_spec() {
  return score_filter_spec(
      "urls",
      "NeMo UrlsFilter: drops documents whose code points inside http(s) URLs are above the "
      "cutoff share.",
      "urls_ratio",
      {{"max_url_to_text_ratio", ParamType::kFloat, "0.2",
        "most URL code points / code points kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_url_to_text_ratio"));
        return ScoreRule{[](DocSegments& d) {
                           size_t url_chars = 0;
                           for_each_nemo_url(
                               d.text(), [&](std::string_view url) { url_chars += url.size(); });
                           return ratio_or_one(static_cast<double>(url_chars), d.chars().chars);
                         },
                         -1.0, p.get_float("max_url_to_text_ratio")};
      });
}

StageSpec white_space_spec() {
  return score_filter_spec(
      "white_space",
      "NeMo WhiteSpaceFilter: drops documents whose share of \\t \\n \\r \\b and space is above "
      "the cutoff.",
      "white_space",
      {{"max_white_space_ratio", ParamType::kFloat, "0.25", "most white space / code points kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_white_space_ratio"));
        return ScoreRule{[](DocSegments& d) {
                           const CharCounts& c = d.chars();
                           return ratio_or_one(c.white_space, c.chars);
                         },
                         -1.0, p.get_float("max_white_space_ratio")};
      });
}

StageSpec parentheses_spec() {
  return score_filter_spec(
      "parentheses",
      "NeMo ParenthesesFilter: drops documents whose share of { } ⟨ ⟩ [ ] ( ) is above the cutoff.",
      "parentheses_ratio",
      {{"max_parentheses_ratio", ParamType::kFloat, "0.1", "most brackets / code points kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_parentheses_ratio"));
        return ScoreRule{[](DocSegments& d) {
                           const CharCounts& c = d.chars();
                           return ratio_or_one(c.parentheses, c.chars);
                         },
                         -1.0, p.get_float("max_parentheses_ratio")};
      });
}

StageSpec pornographic_urls_spec() {
  return score_filter_spec(
      "pornographic_urls",
      "NeMo PornographicUrlsFilter: drops documents with a URL containing \"porn\" (score 1).",
      "pornographic_urls", {}, [](const StageParams&) -> Result<ScoreRule> {
        return ScoreRule{[](DocSegments& d) {
                           bool found = false;
                           for_each_nemo_url(d.text(), [&](std::string_view url) {
                             found = found || url.find("porn") != std::string_view::npos;
                           });
                           return found ? 1.0 : 0.0;
                         },
                         -1.0, 0.0};
      });
}

StageSpec histogram_spec() {
  return score_filter_spec(
      "histogram",
      "NeMo HistogramFilter: keeps documents where more than `threshold` of the code points "
      "belong to the language's character set (CLDR exemplar characters via ICU: NeMo's "
      "downloaded histograms are not available offline).",
      "histogram",
      {{"lang", ParamType::kString, "en", "language code (en, de, fr, zh, ja, ...)"},
       {"threshold", ParamType::kFloat, "0.8", "share of in-set code points to exceed"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "threshold"));
        auto charset = LanguageCharset::for_language(p.get_string("lang"));
        if (!charset.is_ok()) return p.error("lang", charset.status().message());
        std::shared_ptr<const LanguageCharset> set = charset.value();
        // NeMo keeps score > threshold (strictly); an empty text scores 1.
        return ScoreRule{[set](DocSegments& d) {
                           size_t in_set = 0, total = 0;
                           set->count(d.text(), in_set, total);
                           return ratio_or_one(static_cast<double>(in_set),
                                               static_cast<double>(total));
                         },
                         std::nextafter(p.get_float("threshold"), 2.0)};
      });
}

}  // namespace

void add_nemo_char_filters(StageRegistry& registry) {
  registry.add(histogram_spec());
  registry.add(non_alpha_numeric_spec());
  registry.add(numbers_spec());
  registry.add(urls_spec());
  registry.add(white_space_spec());
  registry.add(parentheses_spec());
  registry.add(pornographic_urls_spec());
}

}  // namespace winnow
