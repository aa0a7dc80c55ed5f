// fineweb_quality: datatrove's FineWebQualityFilter, in its order with its reason names. Lines
// are the non-blank pieces of text.split("\n"), compared as they are (not stripped):
//   - share of lines ending in terminal punctuation < line_punct_thr → line_punct_ratio
//     (line_punct_exclude_zero: a share of exactly 0 passes);
//   - share of lines of at most short_line_length code points > short_line_thr → short_line_ratio;
//   - code points in duplicated lines / code points of the text without "\n" >
//   char_duplicates_ratio
//     → char_dup_ratio;
//   - "\n" count / word tokens > new_line_ratio → list_ratio.
// No non-blank line → empty.
//
// Terminal punctuation: datatrove lists the Unicode sentence-terminal characters
// (TERMINAL_PUNCTUATION); here it is the Unicode Sentence_Terminal property from ICU, the
// source such lists are taken from.
#include "core/utf8.h"
#include "stages/text_quality/check_set.h"
#include "stages/text_quality/quality_sets.h"
#include "text/doc_segments.h"
#include "text/ngram_stats.h"
#include "text/python_text.h"

namespace winnow {

namespace {

bool ends_in_terminal(std::string_view line) {
  if (line.empty()) return false;
  const char* p = line.data() + last_code_point_start(line);
  return is_sentence_terminal(decode_utf8(p, line.data() + line.size()));
}

class FineWebQualityStage final : public Stage {
 public:
  struct Options {
    double line_punct_thr;
    bool line_punct_exclude_zero;
    double short_line_thr;
    int64_t short_line_length;
    double char_duplicates_ratio, new_line_ratio;
  };

  FineWebQualityStage(Options o, bool annotate, StageContext& context) : o_(o), checks_(annotate) {
    empty_ = checks_.add(context, "empty", "lines");
    punct_ = checks_.add(context, "line_punct_ratio", "line_punct_ratio");
    short_ = checks_.add(context, "short_line_ratio", "short_line_ratio");
    dup_ = checks_.add(context, "char_dup_ratio", "char_dup_ratio");
    list_ = checks_.add(context, "list_ratio", "list_ratio");
  }

  Status process(DocBatch& batch) override {
    auto columns = checks_.columns(batch);
    DocSegmentsCache& cache = segment_cache(batch);
    for (size_t row = 0; row < batch.size(); ++row) {
      if (!batch.kept(row)) continue;
      DocSegments& d = cache.at(batch, row);
      const auto& lines = d.lines();
      CheckSet::Verdict verdict(checks_, columns, row);
      auto check = [&](size_t id, double value, bool ok) { return verdict.check(id, value, ok); };
      const double n = static_cast<double>(lines.size());
      if (lines.empty()) {
        check(empty_, 0.0, false);
      } else {
        check(empty_, n, true);
        size_t punct = 0, short_lines = 0;
        for (const TextPiece& l : lines) {
          punct += ends_in_terminal(d.piece(l));
          short_lines += static_cast<int64_t>(l.chars) <= o_.short_line_length;
        }
        double punct_ratio = static_cast<double>(punct) / n;
        bool ok =
            !(punct_ratio < o_.line_punct_thr && !(punct_ratio == 0 && o_.line_punct_exclude_zero));
        if (check(punct_, punct_ratio, ok) &&
            check(short_, static_cast<double>(short_lines) / n,
                  !(static_cast<double>(short_lines) / n > o_.short_line_thr))) {
          PieceRepetition r = piece_repetition(d.text(), lines);
          double chars_without_newlines = d.chars().chars - d.chars().newlines;
          double dup =
              chars_without_newlines > 0
                  ? static_cast<double>(r.chars - r.distinct_chars) / chars_without_newlines
                  : 0.0;
          if (check(dup_, dup, !(dup > o_.char_duplicates_ratio))) {
            double words = static_cast<double>(d.tokens().size());
            double list = words > 0 ? d.chars().newlines / words : 0.0;
            check(list_, list, !(list > o_.new_line_ratio));
          }
        }
      }
      verdict.apply(batch);
    }
    return Status::ok();
  }

 private:
  Options o_;
  CheckSet checks_;
  size_t empty_, punct_, short_, dup_, list_;
};

}  // namespace

StageSpec fineweb_quality_spec() {
  return {
      "fineweb_quality",
      "datatrove FineWebQualityFilter: lines ending in punctuation, short lines, duplicated "
      "line characters, newlines per word.",
      {
          {"line_punct_thr", ParamType::kFloat, "0.12",
           "least lines ending in terminal punctuation / lines kept"},
          {"line_punct_exclude_zero", ParamType::kBool, "false",
           "let documents with no such line pass that check"},
          {"short_line_thr", ParamType::kFloat, "0.67", "most short lines / lines kept"},
          {"short_line_length", ParamType::kInt, "30",
           "a short line has at most this many code points"},
          {"char_duplicates_ratio", ParamType::kFloat, "0.01",
           "most code points in duplicated lines / code points (without newlines) kept"},
          {"new_line_ratio", ParamType::kFloat, "0.3", "most newlines / words kept"},
          {"annotate", ParamType::kBool, "false",
           "record every metric in fields named <stage>_<metric>"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        FineWebQualityStage::Options o;
        for (const char* key : {"line_punct_thr", "short_line_thr", "char_duplicates_ratio"}) {
          double v = p.get_float(key);
          if (!(v >= 0 && v <= 1)) return p.error(key, "must be between 0 and 1");
        }
        if (!(p.get_float("new_line_ratio") >= 0))
          return p.error("new_line_ratio", "must be 0 or more");
        if (p.get_int("short_line_length") < 0)
          return p.error("short_line_length", "must be 0 or more");
        o.line_punct_thr = p.get_float("line_punct_thr");
        o.line_punct_exclude_zero = p.get_bool("line_punct_exclude_zero");
        o.short_line_thr = p.get_float("short_line_thr");
        o.short_line_length = p.get_int("short_line_length");
        o.char_duplicates_ratio = p.get_float("char_duplicates_ratio");
        o.new_line_ratio = p.get_float("new_line_ratio");
        return std::unique_ptr<Stage>(new FineWebQualityStage(o, p.get_bool("annotate"), context));
      },
  };
}

}  // namespace winnow
