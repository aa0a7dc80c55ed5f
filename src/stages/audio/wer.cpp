// wer: word and character error rates of a transcript field against the reference field, as
// NeMo Curator's ComputeWERStage computes them (text/transcript_errors.h: its text normaliser's
// number reading, text/spoken_english.h, and its cleaning, then Levenshtein over words and over
// characters), with filters on both.
#include <limits>

#include "stages/builtin_stages.h"
#include "text/transcript_errors.h"

namespace winnow {

namespace {

class Wer final : public Stage {
 public:
  struct Options {
    std::string hypothesis_field, reference_field, wer_field, cer_field;
    double max_wer = -1, max_cer = -1;  // below 0: no filter
    bool normalize = true;              // numbers made words before the cleaning, as NeMo
  };
  Wer(Options options, StageContext& context)
      : o_(std::move(options)),
        missing_counter_(context.stage_name() + "/missing_transcript"),
        empty_counter_(context.stage_name() + "/empty_reference"),
        high_wer_(context.declare_reason("high_wer")),
        high_cer_(context.declare_reason("high_cer")) {}

  Status process(DocBatch& batch) override {
    const AnnotationColumn* hyp = batch.find_annotation(o_.hypothesis_field);
    const AnnotationColumn* ref = batch.find_annotation(o_.reference_field);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      if (!has_string(hyp, i) || !has_string(ref, i)) {
        ++batch.stage_counts[missing_counter_];
        continue;
      }
      const std::u32string h = clean(hyp->string_at(i));
      const std::u32string r = clean(ref->string_at(i));
      if (r.empty()) {  // NeMo skips the item's metrics (metric_skip_reason empty_reference)
        ++batch.stage_counts[empty_counter_];
        continue;
      }
      score(batch, i, word_errors(h, r).rate(), char_errors(h, r).rate());
    }
    return Status::ok();
  }

 private:
  std::u32string clean(std::string_view text) const {
    return o_.normalize ? clean_spoken_transcript(text) : clean_transcript(text);
  }

  static bool has_string(const AnnotationColumn* column, size_t row) {
    return column && column->type() == AnnotationType::kString && column->has(row);
  }

  void score(DocBatch& batch, size_t i, double wer, double cer) const {
    batch.annotation(o_.wer_field, AnnotationType::kFloat).set_float(i, wer);
    batch.annotation(o_.cer_field, AnnotationType::kFloat).set_float(i, cer);
    if (o_.max_wer >= 0 && wer > o_.max_wer) batch.drop(i, high_wer_, wer);
    else if (o_.max_cer >= 0 && cer > o_.max_cer) batch.drop(i, high_cer_, cer);
  }

  Options o_;
  std::string missing_counter_, empty_counter_;
  ReasonId high_wer_, high_cer_;
};

}  // namespace

StageSpec wer_spec() {
  StageSpec spec{
      "wer",
      "Word and character error rates (NeMo's ComputeWERStage: its text normaliser's English "
      "written-to-spoken reading, then its text cleaning, Levenshtein distance / reference "
      "length) of hypothesis_field against reference_field, written to wer_field and cer_field. "
      "With normalize (the default, as NeMo) both texts have their cardinals, ordinals, "
      "decimals, percentages, money ($ £ € ¥ ₩), years, clock times, telephone numbers, "
      "dates and ranges written out as NeMo's normaliser says them (\"3 cats\" and "
      "\"three cats\" score 0, \"$5.50\" reads \"five dollars fifty cents\", \"1995\" "
      "\"nineteen ninety five\"), and so are common abbreviations and lone symbols of its "
      "whitelist (\"Dr.\" \"doctor\", \"&\" \"and\"); fractions, "
      "units, serials like \"B2\", the rest of the whitelist and NeMo's other classes are left "
      "as written. Drops above max_wer (reason high_wer) or max_cer (high_cer), score: the "
      "rate. An item without both fields, or whose reference cleans to nothing, is kept "
      "unscored and counted (missing_transcript, empty_reference).",
      {
          {"hypothesis_field", ParamType::kString, "pred_text", "the transcript to score"},
          {"reference_field", ParamType::kString, "text", "the reference transcript"},
          {"max_wer", ParamType::kFloat, "-1", "highest word error rate kept (below 0: none)"},
          {"max_cer", ParamType::kFloat, "-1", "highest character error rate kept (below 0: none)"},
          {"wer_field", ParamType::kString, "wer", "where the word error rate goes"},
          {"cer_field", ParamType::kString, "cer", "where the character error rate goes"},
          {"normalize", ParamType::kBool, "true",
           "numbers, money, percentages, years, times, telephone numbers, dates and "
           "common abbreviations written out as words before the cleaning, as NeMo's "
           "normaliser does (false: compared as written)"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        Wer::Options o{p.get_string("hypothesis_field"), p.get_string("reference_field"),
                       p.get_string("wer_field"), p.get_string("cer_field"),
                       p.get_float("max_wer"), p.get_float("max_cer"), p.get_bool("normalize")};
        for (const char* key : {"hypothesis_field", "reference_field", "wer_field", "cer_field"}) {
          if (p.get_string(key).empty()) return p.error(key, "must not be empty");
        }
        return std::unique_ptr<Stage>(new Wer(std::move(o), context));
      },
  };
  spec.takes = ItemKind::kAudio;
  return spec;
}

}  // namespace winnow
