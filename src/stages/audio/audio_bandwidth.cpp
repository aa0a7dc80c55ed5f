// audio_bandwidth: NeMo Curator's BandwidthEstimationStage (media/audio_bandwidth.h) on each
// audio item's samples, averaged to mono as librosa.load does, at the rate they have when the
// stage sees them (after `resample`, the resampled audio: what will be written), with a filter.
#include "media/audio_bandwidth.h"

#include "media/audio_samples.h"
#include "stages/audio/undecodable_audio.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

class AudioBandwidth final : public Stage {
 public:
  AudioBandwidth(BandwidthOptions options, int64_t min_hz, std::string field, StageContext& context)
      : options_(options),
        min_hz_(min_hz),
        field_(std::move(field)),
        low_bandwidth_(context.declare_reason("low_bandwidth")),
        undecodable_(context) {}

  Status process(DocBatch& batch) override {
    return undecodable_.each_decoded(batch, [&](size_t i, const AudioSamples& audio) {
      const int64_t hz = audio_bandwidth_hz(mono_samples(audio), audio.sample_rate, options_);
      batch.annotation(field_, AnnotationType::kInt).set_int(i, hz);
      if (hz < min_hz_) batch.drop(i, low_bandwidth_, double(hz));
    });
  }

 private:
  BandwidthOptions options_;
  int64_t min_hz_;
  std::string field_;
  ReasonId low_bandwidth_;
  UndecodableAudio undecodable_;
};

}  // namespace

StageSpec audio_bandwidth_spec() {
  StageSpec spec{
      "audio_bandwidth",
      "NeMo Curator's bandwidth metric: the highest frequency whose mean STFT power (n_fft-point "
      "Blackman-Harris frames every stride_seconds, power_to_db against n_fft clipped at top_db) "
      "lies within frequency_threshold dB of the loudest bin, in Hz, written to `field`; drops "
      "items below min_bandwidth (reason low_bandwidth, score: the Hz).",
      {
          {"n_fft", ParamType::kInt, "512", "FFT size (a power of two; NeMo's 512)"},
          {"stride_seconds", ParamType::kFloat, "0.01", "time between frames (NeMo's 0.01)"},
          {"top_db", ParamType::kFloat, "100", "dynamic range kept below the peak (NeMo's 100)"},
          {"frequency_threshold", ParamType::kFloat, "-50",
           "dB below the peak a bin must be within to count (NeMo's -50)"},
          {"min_bandwidth", ParamType::kInt, "0", "least bandwidth kept, Hz (0: no filter)"},
          {"field", ParamType::kString, "bandwidth", "where the bandwidth goes"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        BandwidthOptions o;
        o.n_fft = static_cast<int>(p.get_int("n_fft"));
        if (o.n_fft < 16 || o.n_fft > 65536 || (o.n_fft & (o.n_fft - 1)) != 0) {
          return p.error("n_fft", "must be a power of two from 16 to 65536");
        }
        o.stride_s = p.get_float("stride_seconds");
        if (!(o.stride_s > 0)) return p.error("stride_seconds", "must be more than 0");
        o.top_db = p.get_float("top_db");
        if (!(o.top_db > 0)) return p.error("top_db", "must be more than 0");
        o.threshold_db = p.get_float("frequency_threshold");
        if (o.threshold_db >= 0) return p.error("frequency_threshold", "must be below 0");
        if (p.get_int("min_bandwidth") < 0) return p.error("min_bandwidth", "must be 0 or more");
        if (p.get_string("field").empty()) return p.error("field", "must not be empty");
        return std::unique_ptr<Stage>(
            new AudioBandwidth(o, p.get_int("min_bandwidth"), p.get_string("field"), context));
      },
  };
  spec.takes = ItemKind::kAudio;
  return spec;
}

}  // namespace winnow
