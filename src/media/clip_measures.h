#pragma once
// Measures over a clip's frames (a span of a video file): motion, the way the anchor's motion
// filter measures it, and sharpness and BRISQUE, the image measures (media/image_measures.h)
// averaged over frames sampled at a fixed rate.
#include <string>

#include "core/status.h"
#include "media/image_measures.h"
#include "media/video_codecs.h"

namespace winnow {

struct MotionOptions {
  double sample_fps = 2;  // frames measured per second of clip
  // Block matching (media/block_motion.h) on frames this wide, when the codec exports no
  // motion vectors.
  int flow_width = 160;
  // The motion of a block of a predicted frame that carries no vector: the encoder found no
  // match for it within its search (x264's and FFmpeg's default range: 16 px), so it moved at
  // least that far or changed beyond recognition (noise, a flash). Counting it as still would
  // rank a clip of pure noise below a gentle pan.
  double intra_motion_px = 16;
};

struct ClipMotion {
  // Mean motion per pixel, as a fraction of (width + height) per frame step.
  double global_mean = 0;
  // The same over the least moving square patch (side: the frame's shorter side; the anchor's
  // 256 x 256 patches of frames whose shorter side is 256).
  double min_patch_mean = 0;
  bool from_vectors = false;  // H.264 / MPEG-4 motion vectors; false: block matching
  int frames = 0;             // frames measured
};

// Motion vectors of the sampled frames that carry any (P and B frames; their intra blocks count
// as intra_motion_px); block matching between consecutive sampled frames when no frame carries
// vectors (another codec, or all intra), unmatched blocks counting as moved the whole range.
Result<ClipMotion> measure_clip_motion(const std::string& path, const ClipSpan& span,
                                       const MotionOptions& options);

struct ClipQuality {
  double blur = 0;     // mean Laplacian variance of the frames (low: blurry)
  double brisque = 0;  // mean BRISQUE (0 best .. 100 worst); 0 when not asked for
  int frames = 0;
};

// Frames sampled at `sample_fps` (the first at the span's start), each at the working image
// size (longer side at most kWorkingSide); BRISQUE only with a scorer.
Result<ClipQuality> measure_clip_quality(const std::string& path, const ClipSpan& span,
                                         double sample_fps, const BrisqueScorer* brisque);

}  // namespace winnow
