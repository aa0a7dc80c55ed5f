#include "stages/audio/speech_segments.h"

#include <algorithm>

#include "media/audio_samples.h"

namespace winnow {

std::optional<VadAudio> vad_audio(const AudioSamples& audio, std::string* why) {
  VadAudio out;
  std::vector<float> mono = mono_samples(audio);
  if (audio.sample_rate == 16000 || audio.sample_rate == 8000) {
    out.samples = std::move(mono);
    out.sample_rate = audio.sample_rate;
  } else if (audio.sample_rate > 16000 && audio.sample_rate % 16000 == 0) {
    const size_t step = size_t(audio.sample_rate / 16000);
    for (size_t i = 0; i < mono.size(); i += step) out.samples.push_back(mono[i]);
    out.sample_rate = 16000;
  } else {
    AudioSamples one{std::move(mono), audio.sample_rate, 1, audio.codec, audio.container};
    AudioDecode resampled = resample_audio(one, {16000, true});
    if (!resampled.audio) {
      if (why) *why = resampled.message;
      return std::nullopt;
    }
    out.samples = std::move(resampled.audio->samples);
    out.sample_rate = 16000;
  }
  return out;
}

AudioSamples cut_segment(const AudioSamples& audio, double begin_s, double end_s) {
  const int64_t frames = audio.frames();
  const int64_t begin = std::clamp<int64_t>(int64_t(begin_s * audio.sample_rate), 0, frames);
  const int64_t end = std::clamp<int64_t>(int64_t(end_s * audio.sample_rate), begin, frames);
  AudioSamples out{{}, audio.sample_rate, audio.channels, audio.codec, audio.container};
  out.samples.assign(audio.samples.begin() + begin * audio.channels,
                     audio.samples.begin() + end * audio.channels);
  return out;
}

}  // namespace winnow
