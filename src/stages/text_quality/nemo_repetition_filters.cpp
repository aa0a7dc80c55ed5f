// NeMo Curator's repetition filters: RepeatedLines, RepeatedParagraphs, their ByChar variants,
// RepeatingTopNGrams and RepeatingDuplicateNGrams (the Gopher repetition rules as NeMo scores
// them, filters.md). Lines and paragraphs are compared as exact strings; n-grams as runs of
// word ids, shared with every other n-gram filter of the chain.
#include "stages/text_quality/nemo_filters.h"
#include "stages/text_quality/score_filter.h"
#include "text/ngram_stats.h"
#include "text/python_text.h"

namespace winnow {

namespace {

enum class Pieces { kLines, kParagraphs };

// Shared by the count and the code-point variant of each filter (computed once per document).
const PieceRepetition& repetition_of(DocSegments& d, Pieces which) {
  return which == Pieces::kLines ? d.line_repetition() : d.paragraph_repetition();
}

ScoreRuleFactory unique_fraction(Pieces which, std::string key) {
  return [which, key](const StageParams& p) -> Result<ScoreRule> {
    WINNOW_RETURN_IF_ERROR(check_ratio(p, key));
    return ScoreRule{[which](DocSegments& d) {
                       const PieceRepetition& r = repetition_of(d, which);
                       return ratio_or_one(static_cast<double>(r.distinct),
                                           static_cast<double>(r.pieces));
                     },
                     p.get_float(key)};
  };
}

ScoreRuleFactory unique_char_fraction(Pieces which, std::string key) {
  return [which, key](const StageParams& p) -> Result<ScoreRule> {
    WINNOW_RETURN_IF_ERROR(check_ratio(p, key));
    return ScoreRule{[which](DocSegments& d) {
                       const PieceRepetition& r = repetition_of(d, which);
                       return ratio_or_one(static_cast<double>(r.distinct_chars),
                                           static_cast<double>(r.chars));
                     },
                     p.get_float(key)};
  };
}

Status check_n(const StageParams& p) {
  int64_t n = p.get_int("n");
  if (n < 1 || n > 64) return p.error("n", "must be between 1 and 64");
  return Status::ok();
}

// NeMo: join the most frequent n-gram with single spaces; score = the code points removed by
// deleting every (non-overlapping, left to right) occurrence of that string / len(text).
double top_ngram_score(DocSegments& d, size_t n, WordSplit split) {
  const auto& words = d.words(split);
  if (words.size() < n) return 1.0;  // fewer than n words (filters.md)
  TopNgram top = d.top_word_ngram(n, split);
  // Words split on white space are joined with a space, as NeMo does. Segmented (zh / ja)
  // words were contiguous in the text, so they are joined as they stood: a space-joined string
  // would never occur in unspaced text.
  const bool spaced = split == WordSplit::kWhitespace;
  thread_local std::string joined;
  joined.clear();
  size_t joined_chars = 0;
  for (size_t k = 0; k < n; ++k) {
    if (k && spaced) joined += ' ';
    joined += d.piece(words[top.position + k]);
    joined_chars += words[top.position + k].chars;
  }
  if (spaced) joined_chars += n - 1;
  size_t occurrences = count_occurrences(d.text(), joined);
  return ratio_or_one(static_cast<double>(occurrences * joined_chars), d.chars().chars);
}

StageSpec repeated_lines_spec() {
  return score_filter_spec(
      "repeated_lines",
      "NeMo RepeatedLinesFilter: keeps documents whose distinct lines / lines is at least the "
      "threshold.",
      "repeated_lines",
      {{"max_repeated_line_fraction", ParamType::kFloat, "0.7",
        "least distinct lines / lines kept (a minimum, despite NeMo's name)"}},
      unique_fraction(Pieces::kLines, "max_repeated_line_fraction"));
}

StageSpec repeated_paragraphs_spec() {
  return score_filter_spec(
      "repeated_paragraphs",
      "NeMo RepeatedParagraphsFilter: keeps documents whose distinct paragraphs / paragraphs is "
      "at least the threshold.",
      "repeated_paragraphs",
      {{"max_repeated_paragraphs_ratio", ParamType::kFloat, "0.7",
        "least distinct paragraphs / paragraphs kept"}},
      unique_fraction(Pieces::kParagraphs, "max_repeated_paragraphs_ratio"));
}

StageSpec repeated_lines_by_char_spec() {
  return score_filter_spec(
      "repeated_lines_by_char",
      "NeMo RepeatedLinesByCharFilter: keeps documents whose distinct lines hold at least the "
      "threshold share of the lines' code points.",
      "repeated_lines_char",
      {{"max_repeated_lines_char_ratio", ParamType::kFloat, "0.8",
        "least code points in distinct lines / in all lines kept"}},
      unique_char_fraction(Pieces::kLines, "max_repeated_lines_char_ratio"));
}

StageSpec repeated_paragraphs_by_char_spec() {
  return score_filter_spec(
      "repeated_paragraphs_by_char",
      "NeMo RepeatedParagraphsByCharFilter: keeps documents whose distinct paragraphs hold at "
      "least the threshold share of the paragraphs' code points.",
      "repeated_paragraphs_char",
      {{"max_repeated_paragraphs_char_ratio", ParamType::kFloat, "0.8",
        "least code points in distinct paragraphs / in all paragraphs kept"}},
      unique_char_fraction(Pieces::kParagraphs, "max_repeated_paragraphs_char_ratio"));
}

StageSpec repeating_top_ngrams_spec() {
  return score_filter_spec(
      "repeating_top_ngrams",
      "NeMo RepeatingTopNGramsFilter: drops documents where the most frequent word n-gram "
      "covers more than the cutoff share of the text.",
      "repeating_top_ngrams",
      {{"n", ParamType::kInt, "2", "n-gram size in words"},
       {"max_repeating_ngram_ratio", ParamType::kFloat, "0.2",
        "most code points covered by the top n-gram / code points kept"},
       lang_param()},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_n(p));
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_repeating_ngram_ratio"));
        auto n = static_cast<size_t>(p.get_int("n"));
        WordSplit split = word_split_for(p.get_string("lang"));
        return ScoreRule{[n, split](DocSegments& d) { return top_ngram_score(d, n, split); }, -1.0,
                         p.get_float("max_repeating_ngram_ratio")};
      });
}

StageSpec repeating_duplicate_ngrams_spec() {
  return score_filter_spec(
      "repeating_duplicate_ngrams",
      "NeMo RepeatingDuplicateNGramsFilter: drops documents where word n-grams seen before "
      "cover more than the cutoff share of the text (overlaps counted once).",
      "repeating_dup_ngrams",
      {{"n", ParamType::kInt, "2", "n-gram size in words"},
       {"max_repeating_duplicate_ngram_ratio", ParamType::kFloat, "0.2",
        "most code points in duplicated n-grams / code points kept"},
       lang_param()},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_n(p));
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_repeating_duplicate_ngram_ratio"));
        auto n = static_cast<size_t>(p.get_int("n"));
        WordSplit split = word_split_for(p.get_string("lang"));
        return ScoreRule{[n, split](DocSegments& d) {
                           const auto& words = d.words(split);
                           if (words.size() < n) return 1.0;  // filters.md
                           // Segmented (zh / ja) words stood without spaces between them.
                           size_t dup =
                               nemo_duplicate_ngram_chars(d.word_repeat_levels(n, split), words, n,
                                                          split == WordSplit::kWhitespace);
                           return ratio_or_one(static_cast<double>(dup), d.chars().chars);
                         },
                         -1.0, p.get_float("max_repeating_duplicate_ngram_ratio")};
      });
}

}  // namespace

void add_nemo_repetition_filters(StageRegistry& registry) {
  registry.add(repeated_lines_spec());
  registry.add(repeated_paragraphs_spec());
  registry.add(repeated_lines_by_char_spec());
  registry.add(repeated_paragraphs_by_char_spec());
  registry.add(repeating_top_ngrams_spec());
  registry.add(repeating_duplicate_ngrams_spec());
}

}  // namespace winnow
