#pragma once
// Speech spans from a voice-activity model's per-window probabilities, by the rules of Silero
// VAD's get_speech_timestamps (the function NeMo Curator's VADSegmentationStage calls): a
// window at or above `threshold` starts speech; speech ends where the probability falls below
// `neg_threshold` and stays under `threshold` for min_silence_ms; speech longer than
// max_speech_s is cut at the longest pause over min_silence_at_max_speech_ms inside it (or, with
// none, right there); spans of min_speech_ms or less are left out; each span is then padded by
// speech_pad_ms, or by half the gap when two spans are closer than twice that.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace winnow {

struct SpeechTimestampOptions {
  double threshold = 0.5;
  double neg_threshold = -1;  // below 0: max(threshold - 0.15, 0.01), as Silero's default
  double min_speech_ms = 250;
  double max_speech_s = std::numeric_limits<double>::infinity();
  double min_silence_ms = 100;
  double speech_pad_ms = 30;
  double min_silence_at_max_speech_ms = 98;
  bool use_max_possible_silence = true;  // cut long speech at the longest pause, else the last
};

// [start, end) in samples of the audio the probabilities were computed on.
struct SampleSpan {
  int64_t start = 0;
  int64_t end = 0;
};

// `probabilities`: one per window of `window` samples (the last window zero-padded) of audio
// `length` samples long at `sample_rate`.
std::vector<SampleSpan> speech_timestamps(std::span<const float> probabilities, int64_t length,
                                          int sample_rate, int window,
                                          const SpeechTimestampOptions& options);

}  // namespace winnow
