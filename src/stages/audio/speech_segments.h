#pragma once
// What vad_segment does to one item's audio, apart from the batch: the audio a Silero-style
// VAD takes (mono at 16 or 8 kHz: as Silero does, a rate that is a multiple of 16 kHz is
// decimated, and, as NeMo Curator's VADSegmentationStage does, any other rate resampled to
// 16 kHz), and a span of the item's own audio cut out as a segment.
#include <optional>
#include <string>
#include <vector>

#include "core/audio_decode.h"

namespace winnow {

struct VadAudio {
  std::vector<float> samples;
  int sample_rate = 0;
};

// Null, with `why`, when the resampler refuses it.
std::optional<VadAudio> vad_audio(const AudioSamples& audio, std::string* why);

// The frames from begin_s to end_s of `audio` (every channel), as NeMo cuts them
// (int(seconds * rate)).
AudioSamples cut_segment(const AudioSamples& audio, double begin_s, double end_s);

}  // namespace winnow
