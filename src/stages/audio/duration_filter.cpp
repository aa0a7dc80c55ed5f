// duration_filter: keeps audio items whose decoded duration lies within the limits (NeMo
// Curator's PreserveByValueStage on `duration`). The readers measure the duration by decoding
// each file whole, so it is the audio's, not what a manifest claims.
#include "media/audio_samples.h"
#include "stages/audio/undecodable_audio.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

class DurationFilter final : public Stage {
 public:
  DurationFilter(double min_s, double max_s, StageContext& context)
      : min_s_(min_s),
        max_s_(max_s),
        too_short_(context.declare_reason("too_short")),
        too_long_(context.declare_reason("too_long")),
        undecodable_(context) {}

  Status process(DocBatch& batch) override {
    return undecodable_.each_decoded(batch, [&](size_t i, const AudioSamples& audio) {
      const double seconds = audio.duration_s();
      if (seconds < min_s_)
        batch.drop(i, too_short_, seconds);
      else if (max_s_ > 0 && seconds > max_s_)
        batch.drop(i, too_long_, seconds);
    });
  }

 private:
  double min_s_, max_s_;
  ReasonId too_short_, too_long_;
  UndecodableAudio undecodable_;
};

}  // namespace

StageSpec duration_filter_spec() {
  StageSpec spec{
      "duration_filter",
      "Keeps audio items whose duration (decoded samples / sample rate) is at least min_seconds "
      "and at most max_seconds. Reasons too_short, too_long (score: the seconds).",
      {
          {"min_seconds", ParamType::kFloat, "0", "shortest kept"},
          {"max_seconds", ParamType::kFloat, "0", "longest kept (0: no limit)"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        const double min_s = p.get_float("min_seconds"), max_s = p.get_float("max_seconds");
        if (min_s < 0) return p.error("min_seconds", "must be 0 or more");
        if (max_s < 0) return p.error("max_seconds", "must be 0 or more");
        if (max_s > 0 && max_s < min_s)
          return p.error("max_seconds", "must be at least min_seconds");
        return std::unique_ptr<Stage>(new DurationFilter(min_s, max_s, context));
      },
  };
  spec.takes = ItemKind::kAudio;
  return spec;
}

}  // namespace winnow
