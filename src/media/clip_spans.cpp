#include "media/clip_spans.h"

#include <algorithm>
#include <cmath>

namespace winnow {

std::vector<ClipSpan> fixed_stride_spans(double duration_s, double clip_s, double stride_s,
                                         double min_clip_s) {
  std::vector<ClipSpan> spans;
  if (clip_s <= 0 || stride_s <= 0) return spans;
  // Starts counted, not summed, so that no rounding error creeps in over a long video.
  for (int64_t k = 0;; ++k) {
    const double start = double(k) * stride_s;
    if (start >= duration_s - 1e-9) break;
    const double end = std::min(start + clip_s, duration_s);
    if (end - start + 1e-9 >= min_clip_s) spans.push_back({start, end});
  }
  return spans;
}

std::vector<ClipSpan> shot_spans(const std::vector<double>& frame_times,
                                 const std::vector<int64_t>& cuts, double duration_s,
                                 const ShotRules& rules) {
  std::vector<ClipSpan> spans;
  const auto count = static_cast<int64_t>(frame_times.size());
  if (count == 0) return spans;
  // A frame's time, and the end of the video past the last frame.
  auto time_of = [&](int64_t frame) {
    return frame < count ? frame_times[size_t(frame)] : std::max(duration_s, frame_times.back());
  };
  const double frame_s =
      count > 1 ? (frame_times.back() - frame_times.front()) / double(count - 1) : duration_s;
  const int64_t crop = frame_s > 0 ? std::llround(rules.crop_s / frame_s) : 0;
  const int64_t max_frames = rules.max_clip_s > 0 && frame_s > 0
                                 ? std::max<int64_t>(1, std::llround(rules.max_clip_s / frame_s))
                                 : 0;
  auto keep = [&](int64_t first, int64_t end) {
    if (end - first < rules.min_clip_frames) return;
    if (time_of(end) - time_of(first) + 1e-9 < rules.min_clip_s) return;
    spans.push_back({time_of(first), time_of(end)});
  };
  std::vector<int64_t> starts = {0};
  for (int64_t c : cuts) {
    if (c > starts.back() && c < count) starts.push_back(c);
  }
  for (size_t s = 0; s < starts.size(); ++s) {
    const int64_t first = starts[s] + crop;
    const int64_t end = (s + 1 < starts.size() ? starts[s + 1] : count) - crop;
    if (end <= first) continue;
    if (max_frames == 0 || end - first <= max_frames) {
      keep(first, end);
      continue;
    }
    // A long shot: pieces of max_clip_s, the remainder kept when long enough on its own.
    for (int64_t piece = first; piece < end; piece += max_frames)
      keep(piece, std::min(end, piece + max_frames));
  }
  return spans;
}

}  // namespace winnow
