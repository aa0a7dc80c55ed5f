// resample: each audio item's audio at one sample rate, and mono by default (NeMo Curator's
// ResampleAudioStage and MonoConversionStage): the samples the reader decoded
// (media/audio_samples.h) resampled by libswresample (core/audio_decode.h), the channels
// averaged as NeMo's mono conversion averages them. The result becomes the item's payload as FLAC (media/audio_flac.h), which the
// writer puts in OUT/files/ and names in the kept manifest's audio_filepath; its samples
// replace the batch's cached ones, so later stages measure what will be written.
#include "core/decoded_audio_cache.h"
#include "media/audio_flac.h"
#include "media/audio_samples.h"
#include "stages/audio/undecodable_audio.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

class Resample final : public Stage {
 public:
  Resample(AudioRequest request, StageContext& context)
      : request_(request), undecodable_(context) {}

  Status process(DocBatch& batch) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::string why;
      const AudioSamples* samples = audio_samples(batch, i, &why);
      AudioDecode decoded = samples ? resample_audio(*samples, request_) : AudioDecode{};
      if (!decoded.audio) {
        WINNOW_RETURN_IF_ERROR(undecodable_.report(batch, i, samples ? decoded.message : why));
        continue;
      }
      auto flac = encode_flac(*decoded.audio);
      if (!flac.is_ok()) {
        WINNOW_RETURN_IF_ERROR(undecodable_.report(batch, i, flac.status().message()));
        continue;
      }
      replace_audio(batch, i, std::move(flac).value(), std::move(*decoded.audio));
    }
    return Status::ok();
  }

 private:
  static void replace_audio(DocBatch& batch, size_t row, std::string flac, AudioSamples audio) {
    Payload out = Payload::of_bytes(std::move(flac), "audio/flac");
    out.path = batch.payload(row)->path;  // the source, named in rejected/ if dropped later
    batch.set_payload(row, std::move(out));
    batch.annotation("duration", AnnotationType::kFloat).set_float(row, audio.duration_s());
    batch.annotation("sample_rate", AnnotationType::kInt).set_int(row, audio.sample_rate);
    batch.annotation("channels", AnnotationType::kInt).set_int(row, audio.channels);
    batch.cache<DecodedAudioCache>().put(batch.key(row), std::move(audio));
  }

  AudioRequest request_;
  UndecodableAudio undecodable_;
};

}  // namespace

StageSpec resample_spec() {
  StageSpec spec{
      "resample",
      "Each audio item's audio resampled to sample_rate by libswresample and, with mono, its "
      "channels averaged; the result is the item's audio from then on, written as FLAC (16-bit) "
      "to OUT/files/ and named by the kept manifest's audio_filepath; sample_rate, channels and "
      "duration follow. Never drops; audio that cannot be decoded is an error record "
      "(undecodable_audio).",
      {
          {"sample_rate", ParamType::kInt, "16000", "samples per second of the result"},
          {"mono", ParamType::kBool, "true", "average the channels into one"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        const int64_t rate = p.get_int("sample_rate");
        if (rate < 1000 || rate > 384000) return p.error("sample_rate", "must be 1000 to 384000");
        AudioRequest request{static_cast<int>(rate), p.get_bool("mono")};
        return std::unique_ptr<Stage>(new Resample(request, context));
      },
  };
  spec.takes = ItemKind::kAudio;
  return spec;
}

}  // namespace winnow
