#pragma once
// What the video codec module's entry points share: owning handles for FFmpeg's objects, an
// input opened on its video stream with a decoder, and a decode loop. Only the module's .cpp
// files include this (and so FFmpeg's headers).
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/motion_vector.h>
#include <libswscale/swscale.h>
}

#include <functional>
#include <memory>
#include <string>

namespace winnow::av {

struct FormatClose {
  void operator()(AVFormatContext* f) const { avformat_close_input(&f); }
};
struct CodecFree {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FrameFree {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketFree {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct ParametersFree {
  void operator()(AVCodecParameters* p) const { avcodec_parameters_free(&p); }
};
struct ScaleFree {
  void operator()(SwsContext* s) const { sws_freeContext(s); }
};
using FormatPtr = std::unique_ptr<AVFormatContext, FormatClose>;
using CodecPtr = std::unique_ptr<AVCodecContext, CodecFree>;
using FramePtr = std::unique_ptr<AVFrame, FrameFree>;
using PacketPtr = std::unique_ptr<AVPacket, PacketFree>;
using ScalePtr = std::unique_ptr<SwsContext, ScaleFree>;
using ParametersPtr = std::unique_ptr<AVCodecParameters, ParametersFree>;

std::string error_text(int code);

// A file opened on its best video stream, with a single-threaded decoder.
struct VideoInput {
  FormatPtr format;
  CodecPtr decoder;
  int stream = -1;
  int audio = -1;      // the best audio stream (-1: none); its packets are never decoded
  double start_s = 0;  // the stream's first timestamp: frame times are counted from it

  AVStream* video() const { return format->streams[stream]; }
  double seconds(int64_t pts) const;  // presentation time from the stream's start
  double fps() const;                 // average frame rate (the base rate when unknown); 0: none
};

// Opens `path` on its best video stream with its decoder open, decoding nothing yet. False with
// `error` set when it cannot (what was opened so far stays in `in`, which tells why).
bool open_video(const char* path, bool motion_vectors, VideoInput& in, std::string& error);

// Decodes from the keyframe at or before `from_s` to the end, calling `on_frame` with each
// frame (and its time) until it returns false; with `on_audio`, each packet of the audio stream
// read on the way is handed to it as it is (a clip copies it), and with `on_video` each packet
// of the video stream before the decoder gets it (a copied clip). Packets the decoder refuses are
// skipped (a damaged stretch loses its frames, not the video); a read error other than the end of
// the file is an error.
bool decode_from(VideoInput& in, double from_s,
                 const std::function<bool(AVFrame* frame, double time_s)>& on_frame,
                 std::string& error,
                 const std::function<void(const AVPacket* packet)>* on_audio = nullptr,
                 const std::function<void(const AVPacket* packet)>* on_video = nullptr);

// BGR24 scaling with area averaging, made again when the source size changes.
class Scaler {
 public:
  // `frame` scaled to width x height into `bgr` (packed rows).
  bool scale(const AVFrame* frame, int width, int height, uint8_t* bgr);

 private:
  ScalePtr context_;
  int in_w_ = 0, in_h_ = 0, in_format_ = -1, out_w_ = 0, out_h_ = 0;
};

// A picture (BGR24, rows packed) as a baseline JPEG with FFmpeg's MJPEG encoder at quantiser
// `qscale` (2 best .. 31 worst), bit-exact; empty when it cannot be encoded.
std::string encode_jpeg(const uint8_t* bgr, int width, int height, int qscale);

}  // namespace winnow::av
