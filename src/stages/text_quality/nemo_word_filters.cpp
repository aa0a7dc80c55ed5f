// NeMo Curator's word filters: SymbolsToWords, LongWord, WordCount, MeanWordLength,
// CommonEnglishWords and WordsWithoutAlphabets. Words are NeMo's: text.strip().split() with
// Python's whitespace (jieba / MeCab segmentation for Chinese / Japanese is not offered: the
// whitespace split is used for every language). Lengths are in code points.
#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/ascii.h"  // is_ascii_alpha
#include "stages/text_quality/nemo_filters.h"
#include "stages/text_quality/score_filter.h"
#include "text/python_text.h"
#include "text/unicode_alphabetic.h"

namespace winnow {

namespace {

// A word that is one of NeMo's ellipsis marks. Those a word can be are 3 or 5 bytes long and
// start with '.', '[', '(', '-' or the lead byte of '…', which rules out most words at once.
bool is_ellipsis_word(std::string_view word) {
  if (word.size() != 3 && word.size() != 5) return false;
  const char first = word[0];
  if (first != '.' && first != '[' && first != '(' && first != '-' && first != '\xE2') return false;
  return std::find(kEllipsisMarks.begin(), kEllipsisMarks.end(), word) != kEllipsisMarks.end();
}

// NeMo's code: a word where the matches of the regex "#+" (runs of '#') are more than half of
// its code points: "#" and "#a#" are symbols, "##", "###" and "##a" are not. (filters.md says
// "'#' more than half the word", which would count "##" and "##a"; the code is what NeMo runs,
// and bench/nemo_chain.sh compares decisions with it: a configuration file of '##' comment
// banners was dropped by winnow alone.) Only the words holding a '#' are looked at: the text's
// '#'s are found with memchr and matched to words in order (no word holds a space, and '#' is
// not one, so every '#' is inside a word).
size_t hash_symbol_words(DocSegments& d, const std::vector<TextPiece>& words) {
  std::string_view text = d.text();
  size_t symbols = 0;
  size_t w = 0;
  for (size_t at = text.find('#'); at != std::string_view::npos;) {
    while (w < words.size() && words[w].begin + words[w].bytes <= at) ++w;
    if (w == words.size()) break;
    std::string_view word = d.piece(words[w]);
    size_t runs = 0;
    for (size_t i = 0; i < word.size(); ++i)
      runs += word[i] == '#' && (i == 0 || word[i - 1] != '#');
    symbols += 2 * runs > words[w].chars;
    at = text.find('#', words[w].begin + words[w].bytes);
  }
  return symbols;
}

// Every ellipsis mark a word can be ("...", "[...]", "…", "(...)", "[…]", "-»") holds "...",
// "…" (E2 80 A6) or "-»" (2D C2 BB): a word without one of them is not a mark. Lists where they
// occur, in order. The three cores are all 3 bytes long, so one pass finds them all, 16
// positions at a time by their first and last bytes (memchr on '.' or '-', which are common,
// would stop every few bytes).
void ellipsis_cores(std::string_view text, std::vector<size_t>& at) {
  at.clear();
  const char* p = text.data();
  const size_t n = text.size();
  auto core_at = [&](size_t i) {
    return (p[i] == '.' && p[i + 1] == '.' && p[i + 2] == '.') ||
           (p[i] == '\xE2' && p[i + 1] == '\x80' && p[i + 2] == '\xA6') ||
           (p[i] == '-' && p[i + 1] == '\xC2' && p[i + 2] == '\xBB');
  };
  size_t i = 0;
#if defined(__SSE2__)
  auto eq = [](__m128i x, char b) { return _mm_cmpeq_epi8(x, _mm_set1_epi8(b)); };
  for (; i + 18 <= n; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 2));
    auto mask = static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_and_si128(eq(a, '.'), eq(b, '.')),
                                                    _mm_and_si128(eq(a, '\xE2'), eq(b, '\xA6'))),
                                       _mm_and_si128(eq(a, '-'), eq(b, '\xBB')))));
    while (mask) {
      const size_t at_i = i + static_cast<size_t>(std::countr_zero(mask));
      if (core_at(at_i)) at.push_back(at_i);
      mask &= mask - 1;
    }
  }
#endif
  for (; i + 3 <= n; ++i) {
    if (core_at(i)) at.push_back(i);
  }
}

// The words that are ellipsis marks, looking only at the words holding an occurrence from
// ellipsis_cores (no word holds a space, and these bytes are not one, so each occurrence lies
// inside one word; a word holding several is counted once: the occurrences come in order).
size_t ellipsis_words(const DocSegments& d, const std::vector<TextPiece>& words,
                      const std::vector<size_t>& cores) {
  size_t marks = 0;
  size_t last = words.size();  // the word of the previous occurrence
  for (size_t at : cores) {
    auto next = std::upper_bound(words.begin(), words.end(), at,
                                 [](size_t pos, const TextPiece& w) { return pos < w.begin; });
    if (next == words.begin()) continue;
    const size_t w = static_cast<size_t>(next - 1 - words.begin());
    if (w == last || at >= words[w].begin + words[w].bytes) continue;
    last = w;
    marks += is_ellipsis_word(d.piece(words[w]));
  }
  return marks;
}

constexpr std::array<std::string_view, 8> kCommonEnglishWords = {"the", "be",   "to",   "of",
                                                                 "and", "that", "have", "with"};

StageSpec symbols_to_words_spec() {
  return score_filter_spec(
      "symbols_to_words",
      "NeMo SymbolsToWordsFilter: drops documents where too many words are an ellipsis mark or "
      "mostly '#'.",
      "symbol_to_word",
      {{"max_symbol_to_word_ratio", ParamType::kFloat, "0.1", "most symbol words / words kept"},
       lang_param()},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "max_symbol_to_word_ratio"));
        WordSplit split = word_split_for(p.get_string("lang"));
        return ScoreRule{[split](DocSegments& d) {
                           // Without a '#' and without an ellipsis mark no word is a symbol, so a
                           // text with a letter or digit (hence a word) scores exactly 0 without
                           // being split: the split waits for long_word, and a document that
                           // numbers, urls, bullets, white_space or parentheses drop in between is
                           // never split. When it is split, only the words holding a '#' or an
                           // ellipsis mark's core are looked at. (White-space split only: ICU's
                           // words are each checked.)
                           const CharCounts& c = d.chars();
                           if (split == WordSplit::kWhitespace) {
                             thread_local std::vector<size_t> cores;
                             ellipsis_cores(d.text(), cores);
                             if (c.hashes == 0 && c.letters + c.digits > 0 && cores.empty())
                               return 0.0;
                             const auto& words = d.words(split);
                             // A word with a '#' is never an ellipsis mark: the two counts do not
                             // overlap.
                             size_t symbols = c.hashes > 0 ? hash_symbol_words(d, words) : 0;
                             symbols += ellipsis_words(d, words, cores);
                             return ratio_or_one(static_cast<double>(symbols),
                                                 static_cast<double>(words.size()));
                           }
                           const auto& words = d.words(split);
                           size_t symbols = c.hashes > 0 ? hash_symbol_words(d, words) : 0;
                           for (const TextPiece& w : words) symbols += is_ellipsis_word(d.piece(w));
                           return ratio_or_one(static_cast<double>(symbols),
                                               static_cast<double>(words.size()));
                         },
                         -1.0, p.get_float("max_symbol_to_word_ratio")};
      });
}

StageSpec long_word_spec() {
  return score_filter_spec(
      "long_word", "NeMo LongWordFilter: drops documents with a word longer than max_word_length.",
      "max_word_length",
      {{"max_word_length", ParamType::kInt, "1000", "longest word kept, in code points"},
       lang_param()},
      [](const StageParams& p) -> Result<ScoreRule> {
        if (p.get_int("max_word_length") < 0)
          return p.error("max_word_length", "must be 0 or more");
        WordSplit split = word_split_for(p.get_string("lang"));
        // A text without words scores 0 (NeMo's max() of nothing would raise).
        return ScoreRule{[split](DocSegments& d) {
                           uint32_t longest = 0;
                           for (const TextPiece& w : d.words(split))
                             longest = std::max(longest, w.chars);
                           return static_cast<double>(longest);
                         },
                         -1.0, static_cast<double>(p.get_int("max_word_length"))};
      });
}

StageSpec word_count_spec() {
  return score_filter_spec(
      "word_count", "NeMo WordCountFilter: keeps documents with min_words to max_words words.",
      "word_count",
      {{"min_words", ParamType::kInt, "50", "fewest words kept"},
       {"max_words", ParamType::kInt, "100000", "most words kept"},
       lang_param()},
      [](const StageParams& p) -> Result<ScoreRule> {
        int64_t lo = p.get_int("min_words"), hi = p.get_int("max_words");
        if (lo < 0) return p.error("min_words", "must be 0 or more");
        if (hi < lo) return p.error("max_words", "must be at least min_words");
        WordSplit split = word_split_for(p.get_string("lang"));
        return ScoreRule{
            [split](DocSegments& d) { return static_cast<double>(d.words(split).size()); },
            static_cast<double>(lo), static_cast<double>(hi)};
      });
}

StageSpec mean_word_length_spec() {
  return score_filter_spec(
      "mean_word_length",
      "NeMo MeanWordLengthFilter: keeps documents whose mean word length lies in [min, max].",
      "mean_word_length",
      {{"min_mean_word_length", ParamType::kFloat, "3", "shortest mean kept"},
       {"max_mean_word_length", ParamType::kFloat, "10", "longest mean kept"},
       lang_param()},
      [](const StageParams& p) -> Result<ScoreRule> {
        WordSplit split = word_split_for(p.get_string("lang"));
        WINNOW_RETURN_IF_ERROR(check_non_negative(p, "min_mean_word_length"));
        if (p.get_float("max_mean_word_length") < p.get_float("min_mean_word_length"))
          return p.error("max_mean_word_length", "must be at least min_mean_word_length");
        // NeMo's code (stages/text/filters/heuristic/string.py) averages the length of every
        // word, punctuation included. With no word NeMo divides by zero and the document is
        // dropped; NaN is never kept here either (the recorded score is then NaN).
        return ScoreRule{[split](DocSegments& d) {
                           const auto& words = d.words(split);
                           size_t total = 0;
                           for (const TextPiece& w : words) total += w.chars;
                           return words.empty() ? std::numeric_limits<double>::quiet_NaN()
                                                : static_cast<double>(total) /
                                                      static_cast<double>(words.size());
                         },
                         p.get_float("min_mean_word_length"), p.get_float("max_mean_word_length")};
      });
}

StageSpec common_english_words_spec() {
  return score_filter_spec(
      "common_english_words",
      "NeMo CommonEnglishWordsFilter: keeps documents with at least min_num_common_words of "
      "{the, be, to, of, and, that, have, with}, lower case only (NeMo's code: \"The\" does "
      "not count, to drop over-capitalised text).",
      "common_english_words",
      {{"min_num_common_words", ParamType::kInt, "2", "fewest common words kept"},
       {"stop_at_false", ParamType::kBool, "true",
        "stop counting at min_num_common_words (NeMo's default; the score is then capped)"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        int64_t min = p.get_int("min_num_common_words");
        if (min < 0) return p.error("min_num_common_words", "must be 0 or more");
        bool stop = p.get_bool("stop_at_false");
        return ScoreRule{[min, stop](DocSegments& d) {
                           int64_t count = 0;
                           for (const TextPiece& w : d.words()) {
                             if (w.bytes > 4 || w.bytes < 2) continue;
                             std::string_view word = d.piece(w);
                             for (std::string_view common : kCommonEnglishWords) {
                               if (word == common) {
                                 ++count;
                                 break;
                               }
                             }
                             if (stop && count >= min) break;
                           }
                           return static_cast<double>(count);
                         },
                         static_cast<double>(min)};
      });
}

StageSpec words_without_alphabets_spec() {
  return score_filter_spec(
      "words_without_alphabets",
      "NeMo WordsWithoutAlphabetsFilter: keeps documents where at least the given share of "
      "words holds a letter (Unicode's Alphabetic property, NeMo's [[:alpha:]]).",
      "words_without_alphabets",
      {{"min_words_with_alphabets", ParamType::kFloat, "0.8",
        "fewest words with a letter / words kept"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_ratio(p, "min_words_with_alphabets"));
        // NeMo's test is the `regex` module's [[:alpha:]]: Unicode's Alphabetic property, so
        // "Дмитрий" has letters (a Debian changelog's maintainer names were dropped by winnow
        // alone while [a-zA-Z] was tested here); no words scores 0.
        return ScoreRule{[](DocSegments& d) {
                           const auto& words = d.words();
                           if (words.empty()) return 0.0;
                           size_t with = 0;
                           // Most words start with an ASCII letter: counted without the call.
                           for (const TextPiece& w : words) {
                             with +=
                                 is_ascii_alpha(d.text()[w.begin]) || has_alphabetic(d.piece(w));
                           }
                           return static_cast<double>(with) / static_cast<double>(words.size());
                         },
                         p.get_float("min_words_with_alphabets")};
      });
}

}  // namespace

void add_nemo_word_filters(StageRegistry& registry) {
  registry.add(symbols_to_words_spec());
  registry.add(long_word_spec());
  registry.add(word_count_spec());
  registry.add(mean_word_length_spec());
  registry.add(common_english_words_spec());
  registry.add(words_without_alphabets_spec());
}

}  // namespace winnow
