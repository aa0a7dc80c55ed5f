#pragma once
// What a video file holds, read by libavformat (through libwinnow_video_codecs.so, loaded on the
// first call): readers refuse a video that cannot be read through before any stage sees it, as
// they refuse an image whose header cannot be read (core/image_header.h).
#include <cstdint>
#include <optional>
#include <string>

#include "core/input_error.h"

namespace winnow {

struct VideoInfo {
  std::string container;    // libavformat's name ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm")
  std::string video_codec;  // "h264", "vp9", ...
  std::string audio_codec;  // empty: no audio stream
  double duration_s = 0;    // of the video stream (the container's when the stream has none)
  double fps = 0;           // average frame rate
  int64_t frames = 0;       // the stream's frame count, or duration x fps rounded when unknown
  int width = 0;
  int height = 0;
  int64_t bit_rate = 0;  // bits per second (the container's when the stream has none; 0: unknown)
};

// The video's facts, or why it is not one winnow can split: `error` and a message that names
// neither the file (the caller does) nor libavformat's internals only.
struct VideoProbe {
  std::optional<VideoInfo> info;
  InputError error = InputError::kUndecodableVideo;
  std::string message;
};

// Opens `path`, reads its streams, decodes its first video frame and checks the last packets
// can be read (a file cut short fails here, not halfway through a stage).
VideoProbe probe_video(const std::string& path);

}  // namespace winnow
