// gopher_quality: datatrove's GopherQualityFilter (the Gopher paper's quality rules), run in
// datatrove's order with its reason names. Words are datatrove's English word_tokenize
// (approximated, see text/word_tokenizer.h); "symbol" words (every code point punctuation,
// symbol or control) are left out of the word count and the mean word length, as datatrove's
// PUNCTUATION_SET does. Lines are str.splitlines().
//
// With no words, the per-word ratios score 0 and the alpha ratio 1 (datatrove would divide by
// zero; the word-count check drops such a document first with the default min_doc_words).
#include <algorithm>
#include <cmath>

#include "stages/text_quality/check_set.h"
#include "stages/text_quality/quality_sets.h"
#include "text/doc_segments.h"
#include "text/python_text.h"

namespace winnow {

namespace {

bool is_symbol_word(std::string_view w) {
  const char* p = w.data();
  const char* end = p + w.size();
  while (p < end) {
    if (!is_punctuation_or_symbol(decode_utf8(p, end))) return false;
  }
  return true;
}

bool has_alpha(std::string_view w) {
  const char* p = w.data();
  const char* end = p + w.size();
  while (p < end) {
    if (is_python_alpha(decode_utf8(p, end))) return true;
  }
  return false;
}

class GopherQualityStage final : public Stage {
 public:
  struct Options {
    double min_doc_words, max_doc_words, min_avg_word_length, max_avg_word_length,
        max_symbol_word_ratio, max_bullet_lines_ratio, max_ellipsis_lines_ratio,
        max_non_alpha_words_ratio;
    int64_t min_stop_words;
    std::vector<std::string> stop_words;
  };

  GopherQualityStage(Options o, bool annotate, StageContext& context)
      : o_(std::move(o)), checks_(annotate) {
    short_ = checks_.add(context, "gopher_short_doc", "words");
    long_ = checks_.add(context, "gopher_long_doc", "words");
    below_avg_ = checks_.add(context, "gopher_below_avg_threshold", "avg_word_length");
    above_avg_ = checks_.add(context, "gopher_above_avg_threshold", "avg_word_length");
    hashes_ = checks_.add(context, "gopher_too_many_hashes", "hash_ratio");
    ellipsis_ = checks_.add(context, "gopher_too_many_ellipsis", "ellipsis_ratio");
    bullets_ = checks_.add(context, "gopher_too_many_bullets", "bullet_lines_ratio");
    end_ellipsis_ = checks_.add(context, "gopher_too_many_end_ellipsis", "end_ellipsis_ratio");
    alpha_ = checks_.add(context, "gopher_below_alpha_threshold", "alpha_words_ratio");
    stop_ = checks_.add(context, "gopher_enough_stop_words", "stop_words");
  }

  Status process(DocBatch& batch) override {
    auto columns = checks_.columns(batch);
    DocSegmentsCache& cache = segment_cache(batch);
    thread_local std::vector<std::string_view> lines;
    for (size_t row = 0; row < batch.size(); ++row) {
      if (!batch.kept(row)) continue;
      DocSegments& d = cache.at(batch, row);
      std::string_view text = d.text();
      CheckSet::Verdict verdict(checks_, columns, row);
      auto check = [&](size_t id, double value, bool ok) { return verdict.check(id, value, ok); };

      const auto& words = d.tokens();
      const double n_words = static_cast<double>(words.size());
      size_t non_symbol = 0, non_symbol_chars = 0;
      for (const TextPiece& w : words) {
        if (!is_symbol_word(d.piece(w))) {
          ++non_symbol;
          non_symbol_chars += w.chars;
        }
      }
      const double n = static_cast<double>(non_symbol);
      if (!check(short_, n, !(o_.min_doc_words > 0 && n < o_.min_doc_words))) goto done;
      if (!check(long_, n, !(o_.max_doc_words > 0 && n > o_.max_doc_words))) goto done;
      {
        double avg = non_symbol ? static_cast<double>(non_symbol_chars) / n
                                : std::numeric_limits<double>::quiet_NaN();
        // NaN (no words) fails neither comparison, as in datatrove (np.mean of nothing).
        if (!check(below_avg_, avg, !(o_.min_avg_word_length > 0 && avg < o_.min_avg_word_length)))
          goto done;
        if (!check(above_avg_, avg, !(o_.max_avg_word_length > 0 && avg > o_.max_avg_word_length)))
          goto done;
      }
      {
        double per_word = n_words > 0 ? 1.0 / n_words : 0.0;
        double hashes = static_cast<double>(d.chars().hashes) * per_word;
        if (!check(hashes_, hashes,
                   !(o_.max_symbol_word_ratio > 0 && hashes > o_.max_symbol_word_ratio)))
          goto done;
        double ellipsis =
            static_cast<double>(count_occurrences(text, "...") + count_occurrences(text, "…")) *
            per_word;
        if (!check(ellipsis_, ellipsis,
                   !(o_.max_symbol_word_ratio > 0 && ellipsis > o_.max_symbol_word_ratio)))
          goto done;
      }
      {
        python_splitlines(text, lines);
        size_t bullet = 0, end_ellipsis = 0;
        for (std::string_view line : lines) {
          std::string_view l = python_lstrip(line);
          bullet += l.starts_with("•") || l.starts_with("-");
          std::string_view r = python_rstrip(line);
          end_ellipsis += r.ends_with("...") || r.ends_with("…");
        }
        double nl = static_cast<double>(lines.size());
        double bullet_ratio = nl > 0 ? static_cast<double>(bullet) / nl : 0.0;
        if (!check(bullets_, bullet_ratio,
                   !(o_.max_bullet_lines_ratio > 0 && bullet_ratio > o_.max_bullet_lines_ratio)))
          goto done;
        double end_ratio = nl > 0 ? static_cast<double>(end_ellipsis) / nl : 0.0;
        if (!check(end_ellipsis_, end_ratio,
                   !(o_.max_ellipsis_lines_ratio > 0 && end_ratio > o_.max_ellipsis_lines_ratio)))
          goto done;
      }
      {
        size_t alpha = 0;
        for (const TextPiece& w : words) alpha += has_alpha(d.piece(w));
        double ratio = n_words > 0 ? static_cast<double>(alpha) / n_words : 1.0;
        if (!check(alpha_, ratio,
                   !(o_.max_non_alpha_words_ratio > 0 && ratio < o_.max_non_alpha_words_ratio)))
          goto done;
      }
      {
        // Case-sensitive, as datatrove's `w in self.stop_words`.
        int64_t stop = 0;
        for (const TextPiece& w : words) {
          if (w.bytes > longest_stop_word_) continue;
          std::string_view word = d.piece(w);
          stop +=
              std::find(o_.stop_words.begin(), o_.stop_words.end(), word) != o_.stop_words.end();
        }
        check(stop_, static_cast<double>(stop),
              !(o_.min_stop_words > 0 && stop < o_.min_stop_words));
      }
    done:
      verdict.apply(batch);
    }
    return Status::ok();
  }

 private:
  Options o_;
  CheckSet checks_;
  size_t short_, long_, below_avg_, above_avg_, hashes_, ellipsis_, bullets_, end_ellipsis_, alpha_,
      stop_;
  size_t longest_stop_word_ = SIZE_MAX;

 public:
  void set_longest_stop_word() {
    longest_stop_word_ = 0;
    for (const auto& w : o_.stop_words) longest_stop_word_ = std::max(longest_stop_word_, w.size());
  }
};

}  // namespace

StageSpec gopher_quality_spec() {
  return {
      "gopher_quality",
      "datatrove GopherQualityFilter: word count, mean word length, '#' and ellipsis per word, "
      "bullet and ellipsis lines, words with a letter, stop words. A value of 0 turns a check "
      "off, as in datatrove.",
      {
          {"min_doc_words", ParamType::kInt, "50", "fewest non-symbol words kept"},
          {"max_doc_words", ParamType::kInt, "100000", "most non-symbol words kept"},
          {"min_avg_word_length", ParamType::kFloat, "3", "shortest mean word length kept"},
          {"max_avg_word_length", ParamType::kFloat, "10", "longest mean word length kept"},
          {"max_symbol_word_ratio", ParamType::kFloat, "0.1",
           "most '#' (and, separately, ellipses) per word kept"},
          {"max_bullet_lines_ratio", ParamType::kFloat, "0.9",
           "most lines starting with • or - / lines kept"},
          {"max_ellipsis_lines_ratio", ParamType::kFloat, "0.3",
           "most lines ending in ... or … / lines kept"},
          {"max_non_alpha_words_ratio", ParamType::kFloat, "0.8",
           "least words with a letter / words kept (a minimum, despite datatrove's name)"},
          {"min_stop_words", ParamType::kInt, "2", "fewest stop words kept"},
          {"stop_words", ParamType::kStringList, "[the, be, to, of, and, that, have, with]",
           "the stop words (case-sensitive)"},
          {"annotate", ParamType::kBool, "false",
           "record every metric in fields named <stage>_<metric>"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        GopherQualityStage::Options o;
        o.min_doc_words = static_cast<double>(p.get_int("min_doc_words"));
        o.max_doc_words = static_cast<double>(p.get_int("max_doc_words"));
        o.min_avg_word_length = p.get_float("min_avg_word_length");
        o.max_avg_word_length = p.get_float("max_avg_word_length");
        o.max_symbol_word_ratio = p.get_float("max_symbol_word_ratio");
        o.max_bullet_lines_ratio = p.get_float("max_bullet_lines_ratio");
        o.max_ellipsis_lines_ratio = p.get_float("max_ellipsis_lines_ratio");
        o.max_non_alpha_words_ratio = p.get_float("max_non_alpha_words_ratio");
        o.min_stop_words = p.get_int("min_stop_words");
        o.stop_words = p.get_string_list("stop_words");
        for (const char* key : {"min_doc_words", "max_doc_words", "min_stop_words"}) {
          if (p.get_int(key) < 0) return p.error(key, "must be 0 or more");
        }
        for (const char* key :
             {"min_avg_word_length", "max_avg_word_length", "max_symbol_word_ratio",
              "max_bullet_lines_ratio", "max_ellipsis_lines_ratio", "max_non_alpha_words_ratio"}) {
          if (!(p.get_float(key) >= 0)) return p.error(key, "must be 0 or more");
        }
        auto stage =
            std::make_unique<GopherQualityStage>(std::move(o), p.get_bool("annotate"), context);
        stage->set_longest_stop_word();
        return std::unique_ptr<Stage>(std::move(stage));
      },
  };
}

}  // namespace winnow
