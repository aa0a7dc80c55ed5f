// gopher_repetition: datatrove's GopherRepetitionFilter (Gopher's repetition rules), in
// datatrove's order with its reason names: duplicated paragraphs (re.split("\n{2,}") of the
// stripped text) by count and by code points, the same for lines (re.split("\n+")), then the
// top n-gram and duplicated n-gram code-point fractions over datatrove's word tokens. Every
// code-point fraction is over len(text); an empty text scores 0 everywhere (datatrove would
// divide by zero).
//
// datatrove keys its duplicated n-grams by "".join(words); here they are compared word by word,
// which differs only when two different splits glue to the same string ("ab c" vs "a bc").
#include <charconv>
#include <cmath>

#include "core/number_text.h"
#include "stages/text_quality/check_set.h"
#include "stages/text_quality/quality_sets.h"
#include "text/doc_segments.h"
#include "text/ngram_stats.h"
#include "text/python_text.h"

namespace winnow {

namespace {

// Splits `text` on runs of at least `min_run` newlines (re.split("\n{k,}")).
void split_newline_runs(std::string_view text, size_t min_run, std::vector<std::string_view>& out) {
  out.clear();
  size_t start = 0, i = 0;
  while (i < text.size()) {
    if (text[i] != '\n') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && text[j] == '\n') ++j;
    if (j - i >= min_run) {
      out.push_back(text.substr(start, i - start));
      start = j;
    }
    i = j;
  }
  out.push_back(text.substr(start));
}

struct NgramLimit {
  size_t n;
  double fraction;
};

class GopherRepetitionStage final : public Stage {
 public:
  struct Options {
    double dup_line_frac, dup_para_frac, dup_line_char_frac, dup_para_char_frac;
    std::vector<NgramLimit> top_n_grams, dup_n_grams;
  };

  GopherRepetitionStage(Options o, bool annotate, StageContext& context)
      : o_(std::move(o)), checks_(annotate) {
    para_ = checks_.add(context, "dup_para_frac", "dup_para_frac");
    para_char_ = checks_.add(context, "dup_para_char_frac", "dup_para_char_frac");
    line_ = checks_.add(context, "dup_line_frac", "dup_line_frac");
    line_char_ = checks_.add(context, "dup_line_char_frac", "dup_line_char_frac");
    for (const auto& t : o_.top_n_grams) {
      std::string name = "top_" + std::to_string(t.n) + "_gram";
      top_.push_back(checks_.add(context, name, name));
    }
    for (const auto& t : o_.dup_n_grams) {
      std::string name = "duplicated_" + std::to_string(t.n) + "_n_grams";
      dup_.push_back(checks_.add(context, name, name));
    }
  }

  Status process(DocBatch& batch) override {
    auto columns = checks_.columns(batch);
    DocSegmentsCache& cache = segment_cache(batch);
    thread_local std::vector<std::string_view> pieces;
    for (size_t row = 0; row < batch.size(); ++row) {
      if (!batch.kept(row)) continue;
      DocSegments& d = cache.at(batch, row);
      std::string_view text = d.text();
      const double chars = d.chars().chars;
      CheckSet::Verdict verdict(checks_, columns, row);
      auto check = [&](size_t id, double value, double limit) {  // limit 0: not checked
        return verdict.check(id, value, !(limit > 0 && value > limit));
      };
      auto per_char = [&](size_t count) {
        return chars > 0 ? static_cast<double>(count) / chars : 0.0;
      };

      split_newline_runs(python_strip(text), 2, pieces);
      PieceRepetition para = piece_repetition(pieces);
      if (!check(
              para_,
              static_cast<double>(para.pieces - para.distinct) / static_cast<double>(para.pieces),
              o_.dup_para_frac))
        goto done;
      if (!check(para_char_, per_char(para.chars - para.distinct_chars), o_.dup_para_char_frac))
        goto done;
      split_newline_runs(text, 1, pieces);
      {
        PieceRepetition line = piece_repetition(pieces);
        if (!check(
                line_,
                static_cast<double>(line.pieces - line.distinct) / static_cast<double>(line.pieces),
                o_.dup_line_frac))
          goto done;
        if (!check(line_char_, per_char(line.chars - line.distinct_chars), o_.dup_line_char_frac))
          goto done;
      }
      {
        const auto& words = d.tokens();
        const auto& ids = d.token_ids();
        for (size_t k = 0; k < o_.top_n_grams.size(); ++k) {
          size_t n = o_.top_n_grams[k].n;
          if (words.size() < n) continue;  // no n-grams: datatrove skips the check
          TopNgram top = d.top_token_ngram(n);
          size_t length = n - 1;  // " ".join
          for (size_t j = 0; j < n; ++j) length += words[top.position + j].chars;
          if (!check(top_[k], per_char(length * top.count), o_.top_n_grams[k].fraction)) goto done;
        }
        for (size_t k = 0; k < o_.dup_n_grams.size(); ++k) {
          size_t n = o_.dup_n_grams[k].n;
          size_t dup = datatrove_duplicate_ngram_chars(ids, words, n, &d.token_repeat_spans(n));
          if (!check(dup_[k], per_char(dup), o_.dup_n_grams[k].fraction)) goto done;
        }
      }
    done:
      verdict.apply(batch);
    }
    return Status::ok();
  }

 private:
  Options o_;
  CheckSet checks_;
  size_t para_, para_char_, line_, line_char_;
  std::vector<size_t> top_, dup_;
};

// "n:fraction" items, e.g. "2:0.2".
Result<std::vector<NgramLimit>> parse_limits(const StageParams& p, const std::string& key) {
  std::vector<NgramLimit> out;
  for (const std::string& item : p.get_string_list(key)) {
    auto colon = item.find(':');
    NgramLimit limit{0, 0};
    bool ok = colon != std::string::npos;
    if (ok) {
      auto r = std::from_chars(item.data(), item.data() + colon, limit.n);
      ok = r.ec == std::errc() && r.ptr == item.data() + colon && limit.n >= 1 && limit.n <= 64;
    }
    if (ok) {
      // Not std::stod: it follows the locale (core/number_text.h).
      auto fraction = parse_number<double>(std::string_view(item).substr(colon + 1));
      ok = fraction && *fraction >= 0 && *fraction <= 1;
      if (ok) limit.fraction = *fraction;
    }
    if (!ok)
      return p.error(key, "'" + item + "' is not n:fraction (n from 1 to 64, fraction 0..1)");
    out.push_back(limit);
  }
  return out;
}

}  // namespace

StageSpec gopher_repetition_spec() {
  return {
      "gopher_repetition",
      "datatrove GopherRepetitionFilter: duplicated paragraphs and lines (by count and by code "
      "points), top n-gram and duplicated n-gram code-point fractions. 0 turns a check off.",
      {
          {"dup_line_frac", ParamType::kFloat, "0.3", "most duplicated lines / lines kept"},
          {"dup_para_frac", ParamType::kFloat, "0.3",
           "most duplicated paragraphs / paragraphs kept"},
          {"dup_line_char_frac", ParamType::kFloat, "0.2",
           "most code points in duplicated lines / code points kept"},
          {"dup_para_char_frac", ParamType::kFloat, "0.2",
           "most code points in duplicated paragraphs / code points kept"},
          {"top_n_grams", ParamType::kStringList, "['2:0.2', '3:0.18', '4:0.16']",
           "n:fraction — most code points covered by the top n-gram"},
          {"dup_n_grams", ParamType::kStringList,
           "['5:0.15', '6:0.14', '7:0.13', '8:0.12', '9:0.11', '10:0.1']",
           "n:fraction — most code points in duplicated n-grams"},
          {"annotate", ParamType::kBool, "false",
           "record every metric in fields named <stage>_<metric>"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        GopherRepetitionStage::Options o;
        for (const char* key :
             {"dup_line_frac", "dup_para_frac", "dup_line_char_frac", "dup_para_char_frac"}) {
          double v = p.get_float(key);
          if (!(v >= 0 && v <= 1)) return p.error(key, "must be between 0 and 1");
        }
        o.dup_line_frac = p.get_float("dup_line_frac");
        o.dup_para_frac = p.get_float("dup_para_frac");
        o.dup_line_char_frac = p.get_float("dup_line_char_frac");
        o.dup_para_char_frac = p.get_float("dup_para_char_frac");
        auto top = parse_limits(p, "top_n_grams");
        if (!top.is_ok()) return top.status();
        auto dup = parse_limits(p, "dup_n_grams");
        if (!dup.is_ok()) return dup.status();
        o.top_n_grams = std::move(top).value();
        o.dup_n_grams = std::move(dup).value();
        return std::unique_ptr<Stage>(
            new GopherRepetitionStage(std::move(o), p.get_bool("annotate"), context));
      },
  };
}

}  // namespace winnow
