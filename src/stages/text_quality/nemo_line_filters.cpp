// NeMo Curator's line and paragraph filters: Bullets, Punctuation, Ellipsis and
// BoilerPlateString, plus Substring. Lines are the non-blank pieces of text.split("\n"),
// paragraphs every piece of text.split("\n\n") (filters.md). A ratio over no lines scores 1.0,
// like every ratio over an empty denominator here.
#include <array>
#include <string>

#include "core/ascii.h"
#include "stages/text_quality/nemo_filters.h"
#include "stages/text_quality/policy_phrases.h"
#include "stages/text_quality/score_filter.h"
#include "text/python_text.h"

namespace winnow {

namespace {

// Each starts with byte E2 (bullets_spec relies on it; tested).
constexpr std::array<std::string_view, 12> kBullets = {"•", "‣", "⁃", "⁌", "⁍", "∙",
                                                       "○", "●", "◘", "◦", "⦾", "⦿"};
constexpr std::array<char, 5> kEndMarks = {'.', '?', '!', '"', '\''};

// NeMo's policy phrases (policy_phrases.h) each hold "cookie", "privacy" or "terms of use": a
// text holding none of them (nor "lorem ipsum") scores 0 after one search each over the
// lower-cased text; only the others are examined paragraph by paragraph. Lower-casing keeps byte
// offsets (ASCII only), so the paragraphs' offsets index the lower-cased copy.
double boilerplate_score(DocSegments& d) {
  thread_local std::string lower;
  ascii_lower(d.text(), lower);
  std::string_view all = lower;
  if (find_bytes(all, "lorem ipsum") != std::string_view::npos) return 1.0;
  if (!may_have_nemo_policy_phrase(all)) return 0.0;
  const auto& paragraphs = d.paragraphs();
  size_t boilerplate = 0;
  for (const TextPiece& para : paragraphs) {
    // Stripping cannot change a substring test on phrases that start and end with a letter.
    if (has_policy_phrase(all.substr(para.begin, para.bytes), kNemoPolicyPhrases)) ++boilerplate;
  }
  return ratio_or_one(static_cast<double>(boilerplate), static_cast<double>(paragraphs.size()));
}

StageSpec bullets_spec() {
  return score_filter_spec(
      "bullets",
      "NeMo BulletsFilter: drops documents where more than the cutoff share of lines start "
      "with a bullet glyph (• ‣ ⁃ ⁌ ⁍ ∙ ○ ● ◘ ◦ ⦾ ⦿).",
      "bullet_ratio",
      {{"max_bullet_lines_ratio", ParamType::kFloat, "0.9", "most bullet lines / lines kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_bullet_lines_ratio"));
        return ScoreRule{[](DocSegments& d) {
                           // Every bullet glyph is a three-byte character starting with byte
                           // E2, and a text with a letter or digit has a non-blank line: such
                           // a text without an E2 byte scores exactly 0 without being split
                           // into lines. The split then waits for punctuation, so a document
                           // that white_space ... mean_word_length drop is never split.
                           const CharCounts& c = d.chars();
                           if (c.letters + c.digits > 0 &&
                               (c.chars == d.text().size() ||
                                d.text().find('\xE2') == std::string_view::npos))
                             return 0.0;
                           const auto& lines = d.lines();
                           size_t bullets = 0;
                           for (const TextPiece& l : lines) {
                             std::string_view s = python_lstrip(d.piece(l));
                             if (s.empty() || static_cast<unsigned char>(s[0]) < 0x80) continue;
                             for (std::string_view b : kBullets) {
                               if (s.substr(0, b.size()) == b) {
                                 ++bullets;
                                 break;
                               }
                             }
                           }
                           return ratio_or_one(static_cast<double>(bullets),
                                               static_cast<double>(lines.size()));
                         },
                         -1.0, p.get_float("max_bullet_lines_ratio")};
      });
}

StageSpec punctuation_spec() {
  return score_filter_spec(
      "punctuation",
      "NeMo PunctuationFilter: drops documents where more than the cutoff share of lines do "
      "not end in . ? ! \" or '.",
      "punctuation",
      {{"max_num_sentences_without_endmark_ratio", ParamType::kFloat, "0.85",
        "most lines without an end mark / lines kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_num_sentences_without_endmark_ratio"));
        return ScoreRule{
            [](DocSegments& d) {
              const auto& lines = d.lines();
              size_t without = 0;
              for (const TextPiece& l : lines) {
                // Lines are compared stripped (a trailing space or \r does not
                // hide the end mark).
                std::string_view s = python_rstrip(d.piece(l));
                bool marked = !s.empty() && std::find(kEndMarks.begin(), kEndMarks.end(),
                                                      s.back()) != kEndMarks.end();
                without += !marked;
              }
              return ratio_or_one(static_cast<double>(without), static_cast<double>(lines.size()));
            },
            -1.0, p.get_float("max_num_sentences_without_endmark_ratio")};
      });
}

StageSpec ellipsis_spec() {
  return score_filter_spec(
      "ellipsis",
      "NeMo EllipsisFilter: drops documents where more than the cutoff share of lines end in an "
      "ellipsis mark (... [...] … (...) […] -» read more.. read more).",
      "ellipsis",
      {{"max_num_lines_ending_with_ellipsis_ratio", ParamType::kFloat, "0.3",
        "most lines ending in an ellipsis / lines kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_num_lines_ending_with_ellipsis_ratio"));
        return ScoreRule{[](DocSegments& d) {
                           const auto& lines = d.lines();
                           size_t ending = 0;
                           for (const TextPiece& l : lines) {
                             std::string_view s = python_rstrip(d.piece(l));
                             for (std::string_view mark : kEllipsisMarks) {
                               if (ascii_iends_with(s, mark)) {
                                 ++ending;
                                 break;
                               }
                             }
                           }
                           return ratio_or_one(static_cast<double>(ending),
                                               static_cast<double>(lines.size()));
                         },
                         -1.0, p.get_float("max_num_lines_ending_with_ellipsis_ratio")};
      });
}

StageSpec boilerplate_string_spec() {
  return score_filter_spec(
      "boilerplate_string",
      "NeMo BoilerPlateStringFilter: drops documents where more than the cutoff share of "
      "paragraphs hold a privacy / cookie / terms-of-use phrase; any \"lorem ipsum\" scores 1.",
      "boilerplate_string_ratio",
      {{"max_boilerplate_string_ratio", ParamType::kFloat, "0.4",
        "most boilerplate paragraphs / paragraphs kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_boilerplate_string_ratio"));
        return ScoreRule{[](DocSegments& d) { return boilerplate_score(d); }, -1.0,
                         p.get_float("max_boilerplate_string_ratio")};
      });
}

StageSpec substring_spec() {
  return score_filter_spec(
      "substring",
      "NeMo SubstringFilter: keeps documents holding `substring` at the given position "
      "(prefix, suffix or any).",
      "substring",
      {{"substring", ParamType::kString, "", "the text to look for", true},
       {"position", ParamType::kString, "any", "prefix, suffix or any"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        std::string sub = p.get_string("substring");
        std::string position = p.get_string("position");
        if (sub.empty()) return p.error("substring", "must not be empty");
        if (position != "prefix" && position != "suffix" && position != "any")
          return p.error("position", "must be prefix, suffix or any");
        return ScoreRule{[sub, position](DocSegments& d) {
                           std::string_view t = d.text();
                           bool found = position == "prefix" ? t.starts_with(sub)
                                        : position == "suffix"
                                            ? t.ends_with(sub)
                                            : t.find(sub) != std::string_view::npos;
                           return found ? 1.0 : 0.0;
                         },
                         1.0};
      });
}

}  // namespace

void add_nemo_line_filters(StageRegistry& registry) {
  registry.add(bullets_spec());
  registry.add(punctuation_spec());
  registry.add(ellipsis_spec());
  registry.add(boilerplate_string_spec());
  registry.add(substring_spec());
}

}  // namespace winnow
