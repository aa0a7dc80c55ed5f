#pragma once
// Video decode and encode, behind plain types. FFmpeg lives only in libwinnow_video_codecs.so
// (src/media/codecs/video/), loaded on the first call (core/codec_module.h): processes that
// never touch a video never load FFmpeg's ~130 libraries. Every call runs on its caller's thread
// with one decoder and one encoder thread, inside the executor's CPU budget, and is safe to make
// from several threads at once.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"

namespace winnow {

// One H.264 motion vector as the decoder exports it (libavutil's AVMotionVector, less its
// source field): block of w x h at (dst_x, dst_y) in the frame, moved by motion / scale pixels.
struct MotionVector {
  int32_t dst_x = 0, dst_y = 0;
  int32_t motion_x = 0, motion_y = 0;
  int32_t scale = 1;
  uint8_t w = 0, h = 0;
};

struct FrameRequest {
  double begin_s = 0;  // frames whose time is in [begin_s, end_s); end_s 0: to the end
  double end_s = 0;
  double sample_fps = 0;  // 0: every frame; else the first frame at or after each 1/fps step
  int width = 0;          // scaled to this size (area averaging); 0 and 0: the source's; one
  int height = 0;         // of them 0: the other follows the source's aspect ratio
  // With width and height 0: reduced by the smallest whole factor that brings the longer side
  // to this or less (0: the source's size), as images are to their working size.
  int max_side = 0;
  bool motion_vectors = false;  // export the decoder's motion vectors (H.264 and MPEG-4 only)
};

struct VideoFrame {
  int64_t index = 0;  // position among the frames decoded from begin_s (0, 1, ...)
  double time_s = 0;  // presentation time from the stream's start
  int width = 0;
  int height = 0;
  std::vector<uint8_t> bgr;  // width x height x 3, rows packed
  int source_width = 0;      // the frame before scaling (what motion vectors refer to)
  int source_height = 0;
  bool has_vectors = false;  // the decoder exported vectors for this frame (none: intra)
  std::vector<MotionVector> vectors;
};

// Called for each frame in order; return false to stop early.
using FrameCallback = std::function<bool(VideoFrame& frame)>;

// Decodes `path` (a file on disk) from the keyframe before request.begin_s and hands each
// frame of the span to `on_frame`. An error names what failed (the caller names the file).
Status decode_video_frames(const std::string& path, const FrameRequest& request,
                           const FrameCallback& on_frame);

// `frame`'s picture as a baseline JPEG (MJPEG at quantiser `qscale`: 2 best .. 31 worst;
// bit-exact, so the same frame gives the same bytes on every machine).
Result<std::string> encode_frame_jpeg(const VideoFrame& frame, int qscale);

struct ClipSpan {
  double begin_s = 0;  // the clip holds the source's frames whose time is in [begin_s, end_s)
  double end_s = 0;
};

// Fixed settings, so that the same input gives the same bytes whatever winnow's thread count.
struct EncodeSettings {
  // An FFmpeg encoder (transcode_clips checks it opens when the pipeline loads); h264_nvenc
  // gets VBR at CQ 21, the anchor's NVENC settings.
  std::string encoder = "libx264";
  int64_t bit_rate = 4'000'000;  // 0: the source's bit rate (4 Mbit/s when it is unknown)
  std::string preset = "fast";   // libx264's preset
  int threads = 1;               // encoder threads; fixed, never derived from the machine
  int preview_frames = 4;        // frames in the contact sheet (0: no preview)
  int preview_width = 160;       // width of each of its tiles
  bool keep_audio = true;        // copy the source's audio packets of the span (the anchor's)
  // Remux instead of encoding a clip of an H.264 source that starts on a keyframe and ends
  // just before one (or at the end): its packets copied, not decoded and encoded again.
  bool copy_when_possible = false;
};

struct EncodedClip {
  // The clip: an MP4 with one H.264 stream starting at time 0 and, with keep_audio, the
  // source's audio packets of the span, copied (when MP4 can carry the codec) and in sync.
  std::string mp4;
  std::string preview_jpg;  // a contact sheet: preview_frames tiles side by side (JPEG)
  int64_t frames = 0;
  double first_s = 0;  // source times of its first and last frame
  double last_s = 0;
  int width = 0;
  int height = 0;
  bool audio = false;   // it carries the source's audio (copied, not re-encoded)
  bool copied = false;  // its video packets are the source's (copy_when_possible), not encoded
  std::string error;   // not empty: this clip could not be made (why)
};

// Whether the encoder `name` of this FFmpeg build opens on this machine (h264_nvenc needs an
// NVIDIA GPU with NVENC and its driver); the error says why not, naming the encoder.
Status check_video_encoder(const std::string& name);

// Cuts every span out of `path` in one decoder pass (from the keyframe before the earliest
// span), each re-encoded from its first frame, so cuts are frame-accurate whatever the source's
// keyframes (or, with copy_when_possible, copied when its keyframes allow a clean cut). `clips`
// comes back in the order of `spans`. Fails as a whole only when the source cannot be read at all.
Status transcode_clips(const std::string& path, const std::vector<ClipSpan>& spans,
                       const EncodeSettings& settings, std::vector<EncodedClip>& clips);

}  // namespace winnow
