#pragma once
// Where a video is cut into clips: fixed windows (NeMo's FixedStrideExtractor) or shots
// (cut frames from media/shot_detector.h) with the anchor's rules: crop each end, refuse short
// shots, split long ones.
#include <cstdint>
#include <vector>

#include "media/video_codecs.h"

namespace winnow {

// Windows [start, min(start + clip_s, duration)) for start = 0, stride_s, 2 stride_s, ... below
// duration_s; those shorter than min_clip_s are left out.
std::vector<ClipSpan> fixed_stride_spans(double duration_s, double clip_s, double stride_s,
                                         double min_clip_s);

struct ShotRules {
  double crop_s = 0.5;           // cut from each end of a shot (transitions, flashes)
  double min_clip_s = 2.0;       // shorter clips are left out...
  int64_t min_clip_frames = 48;  // ... as are those of fewer frames
  double max_clip_s = 60.0;      // longer shots are cut into pieces of this length (0: never)
};

// The clips of a video whose frames have times `frame_times` (ascending; the video ends at
// `duration_s`) and whose shots start at `cuts` (frame positions, as ShotDetector::cuts gives).
std::vector<ClipSpan> shot_spans(const std::vector<double>& frame_times,
                                 const std::vector<int64_t>& cuts, double duration_s,
                                 const ShotRules& rules);

}  // namespace winnow
