#include "media/speech_timestamps.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace winnow {

namespace {

// The limits in samples, as Silero computes them (floats: compared, never rounded).
struct Limits {
  double min_speech, pad, max_speech, min_silence, min_silence_at_max, neg_threshold;
};

Limits limits_for(int rate, int window, const SpeechTimestampOptions& o) {
  Limits l;
  l.min_speech = rate * o.min_speech_ms / 1000;
  l.pad = rate * o.speech_pad_ms / 1000;
  l.max_speech = rate * o.max_speech_s - window - 2 * l.pad;
  l.min_silence = rate * o.min_silence_ms / 1000;
  l.min_silence_at_max = rate * o.min_silence_at_max_speech_ms / 1000;
  l.neg_threshold = o.neg_threshold >= 0 ? o.neg_threshold : std::max(o.threshold - 0.15, 0.01);
  return l;
}

// The spans before padding: Silero's state machine over the windows.
std::vector<SampleSpan> raw_spans(std::span<const float> probs, int64_t length, int64_t window,
                                  const Limits& l, const SpeechTimestampOptions& o) {
  std::vector<SampleSpan> spans;
  int64_t start = -1;  // the open span's start (-1: none)
  bool triggered = false;
  int64_t temp_end = 0;                                    // where a pause began (0: none)
  std::vector<std::pair<int64_t, int64_t>> possible_ends;  // (pause start, its length)
  for (size_t i = 0; i < probs.size(); ++i) {
    const double p = probs[i];
    const int64_t at = window * int64_t(i);
    if (p >= o.threshold && temp_end != 0) {
      const int64_t silence = at - temp_end;
      if (silence > l.min_silence_at_max) possible_ends.emplace_back(temp_end, silence);
      temp_end = 0;
    }
    if (p >= o.threshold && !triggered) {
      triggered = true;
      start = at;
      continue;
    }
    if (triggered && double(at - start) > l.max_speech) {
      if (!possible_ends.empty()) {
        auto cut = possible_ends.back();
        if (o.use_max_possible_silence) {  // the first of the longest, as Python's max()
          cut = *std::max_element(possible_ends.begin(), possible_ends.end(),
                                  [](const auto& a, const auto& b) { return a.second < b.second; });
        }
        spans.push_back({start, cut.first});
        start = -1;
        const int64_t next_start = cut.first + cut.second;
        if (next_start < cut.first + at) {  // Silero's test: still in speech, go on from there
          start = next_start;
        } else {
          triggered = false;
        }
        std::erase_if(possible_ends, [&](const auto& e) { return e.first <= next_start; });
        temp_end = 0;
      } else {
        spans.push_back({start, at});
        start = -1;
        temp_end = 0;
        triggered = false;
        possible_ends.clear();
        continue;
      }
    }
    if (p < l.neg_threshold && triggered) {
      if (temp_end == 0) temp_end = at;
      if (double(at - temp_end) < l.min_silence) continue;
      if (double(temp_end - start) > l.min_speech) spans.push_back({start, temp_end});
      start = -1;
      temp_end = 0;
      triggered = false;
      possible_ends.clear();
    }
  }
  if (start >= 0 && double(length - start) > l.min_speech) spans.push_back({start, length});
  return spans;
}

int64_t floor_div2(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

// Silero's padding: each span widened by `pad`, or by half the gap to its neighbour when the
// gap is under twice that; never past the audio's ends.
void pad_spans(std::vector<SampleSpan>& spans, int64_t length, double pad) {
  for (size_t i = 0; i < spans.size(); ++i) {
    SampleSpan& s = spans[i];
    if (i == 0) s.start = int64_t(std::max(0.0, double(s.start) - pad));
    if (i + 1 == spans.size()) {
      s.end = int64_t(std::min(double(length), double(s.end) + pad));
      continue;
    }
    SampleSpan& next = spans[i + 1];
    const int64_t silence = next.start - s.end;
    if (double(silence) < 2 * pad) {
      s.end += floor_div2(silence);
      next.start = std::max<int64_t>(0, next.start - floor_div2(silence));
    } else {
      s.end = int64_t(std::min(double(length), double(s.end) + pad));
      next.start = int64_t(std::max(0.0, double(next.start) - pad));
    }
  }
}

}  // namespace

std::vector<SampleSpan> speech_timestamps(std::span<const float> probabilities, int64_t length,
                                          int sample_rate, int window,
                                          const SpeechTimestampOptions& options) {
  const Limits l = limits_for(sample_rate, window, options);
  std::vector<SampleSpan> spans = raw_spans(probabilities, length, window, l, options);
  pad_spans(spans, length, l.pad);
  return spans;
}

}  // namespace winnow
