// winnow_video_frames (media/video_codecs.h): the frames of a span, scaled, with the decoder's
// motion vectors when asked for.
#include <algorithm>
#include <cmath>

#include "media/codecs/video/av_support.h"
#include "media/video_codecs.h"

extern "C" __attribute__((visibility("default"))) bool winnow_video_frames(
    const char* path, const winnow::FrameRequest* request, const winnow::FrameCallback* on_frame,
    std::string* error) {
  using namespace winnow;
  av_log_set_level(AV_LOG_FATAL);
  av::VideoInput in;
  if (!av::open_video(path, request->motion_vectors, in, *error)) return false;
  const FrameRequest& r = *request;
  // Half a frame of slack: a span's bounds are frame times, computed in floating point.
  const double fps = in.fps() > 0 ? in.fps() : 25;
  const double slack = 0.5 / fps;
  av::Scaler scaler;
  VideoFrame out;
  int64_t index = 0;
  double next_sample = r.begin_s;  // with sample_fps: the time the next sample is due
  bool ok = av::decode_from(
      in, r.begin_s,
      [&](AVFrame* frame, double time) {
        if (time < r.begin_s - slack) return true;
        if (r.end_s > 0 && time >= r.end_s - slack) return false;
        const int64_t position = index++;
        if (r.sample_fps > 0) {
          if (time < next_sample - slack) return true;
          // The next step after this frame (a gap in the stream skips steps, not frames).
          while (next_sample <= time + slack) next_sample += 1 / r.sample_fps;
        }
        int width = r.width, height = r.height;
        if (width <= 0 && height <= 0) {
          const int longer = std::max(frame->width, frame->height);
          const int factor = r.max_side > 0 ? (longer + r.max_side - 1) / r.max_side : 1;
          width = std::max(1, frame->width / std::max(1, factor));
          height = std::max(1, frame->height / std::max(1, factor));
        } else if (width <= 0) {
          width = std::max(
              1, static_cast<int>(std::lround(double(height) * frame->width / frame->height)));
        } else if (height <= 0) {
          height = std::max(
              1, static_cast<int>(std::lround(double(width) * frame->height / frame->width)));
        }
        out.index = position;
        out.time_s = time;
        out.width = width;
        out.height = height;
        out.source_width = frame->width;
        out.source_height = frame->height;
        out.bgr.resize(size_t(width) * height * 3);
        if (!scaler.scale(frame, width, height, out.bgr.data())) return false;
        out.vectors.clear();
        out.has_vectors = false;
        if (const AVFrameSideData* side =
                av_frame_get_side_data(frame, AV_FRAME_DATA_MOTION_VECTORS)) {
          const auto* mvs = reinterpret_cast<const AVMotionVector*>(side->data);
          size_t count = side->size / sizeof(AVMotionVector);
          out.has_vectors = true;
          out.vectors.reserve(count);
          for (size_t i = 0; i < count; ++i) {
            out.vectors.push_back({mvs[i].dst_x, mvs[i].dst_y, mvs[i].motion_x, mvs[i].motion_y,
                                   static_cast<int32_t>(mvs[i].motion_scale), mvs[i].w, mvs[i].h});
          }
        }
        return (*on_frame)(out);
      },
      *error);
  return ok;
}
