// winnow_video_probe (core/video_probe.h): what a video file holds, and whether it can be read
// through, before any stage sees it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/video_probe.h"
#include "media/codecs/video/av_support.h"

namespace winnow {

namespace {

// Whether the file's first bytes look like a container libavformat knows: a file it names but
// cannot open is a damaged video, one it cannot name is no video at all.
bool looks_like_container(const char* path) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) return false;
  unsigned char head[4096 + AVPROBE_PADDING_SIZE] = {};
  size_t n = std::fread(head, 1, 4096, f);
  std::fclose(f);
  AVProbeData probe{path, head, static_cast<int>(n), nullptr};
  int score = 0;
  // By content alone: a text file named .mp4 is no video.
  probe.filename = "";
  return av_probe_input_format2(&probe, 1, &score) != nullptr && score > AVPROBE_SCORE_MAX / 4;
}

void fail(VideoProbe* out, InputError kind, std::string message) {
  out->info.reset();
  out->error = kind;
  out->message = std::move(message);
}

}  // namespace

}  // namespace winnow

extern "C" __attribute__((visibility("default"))) bool winnow_video_probe(const char* path,
                                                                          winnow::VideoProbe* out) {
  using namespace winnow;
  av_log_set_level(AV_LOG_FATAL);  // errors come back as records, not as noise on stderr
  av::VideoInput in;
  std::string error;
  if (!av::open_video(path, false, in, error)) {
    if (!in.format) {
      if (looks_like_container(path)) {
        fail(out, InputError::kUndecodableVideo, "a damaged or cut-short video: " + error);
      } else {
        fail(out, InputError::kUnknownMedia, "not a video libavformat can read: " + error);
      }
    } else if (in.stream < 0) {
      fail(out, InputError::kNoVideoStream, "the file has no video stream");
    } else if (!in.decoder || !avcodec_is_open(in.decoder.get())) {
      const AVCodecDescriptor* codec = avcodec_descriptor_get(in.video()->codecpar->codec_id);
      fail(out, InputError::kUnsupportedCodec,
           fmt::format("its video codec ({}) has no decoder here: {}",
                       codec ? codec->name : "unknown", error));
    } else {
      fail(out, InputError::kUndecodableVideo, error);
    }
    return false;
  }
  AVStream* video = in.video();
  VideoInfo info;
  info.container = in.format->iformat->name;
  info.video_codec = avcodec_get_name(video->codecpar->codec_id);
  info.width = video->codecpar->width;
  info.height = video->codecpar->height;
  info.fps = in.fps();
  if (!(info.fps > 0) || info.fps > 1000) {
    fail(out, InputError::kBadFrameRate,
         fmt::format("its frame rate is missing or nonsensical ({}/{})", video->avg_frame_rate.num,
                     video->avg_frame_rate.den));
    return false;
  }
  info.duration_s = video->duration != AV_NOPTS_VALUE
                        ? static_cast<double>(video->duration) * av_q2d(video->time_base)
                    : in.format->duration != AV_NOPTS_VALUE
                        ? static_cast<double>(in.format->duration) / AV_TIME_BASE
                        : 0;
  info.frames = video->nb_frames > 0 ? video->nb_frames : std::llround(info.duration_s * info.fps);
  info.bit_rate = video->codecpar->bit_rate > 0 ? video->codecpar->bit_rate : in.format->bit_rate;
  int audio = av_find_best_stream(in.format.get(), AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
  if (audio >= 0)
    info.audio_codec = avcodec_get_name(in.format->streams[audio]->codecpar->codec_id);
  if (info.width <= 0 || info.height <= 0) {
    fail(out, InputError::kUndecodableVideo, "its video stream has no frame size");
    return false;
  }
  // The first frame decodes...
  bool decoded = false;
  if (!av::decode_from(
          in, 0, [&](AVFrame*, double) { return !(decoded = true); }, error) ||
      !decoded) {
    fail(out, InputError::kUndecodableVideo,
         "its first frame cannot be decoded" + (error.empty() ? "" : ": " + error));
    return false;
  }
  // ... and the packets of its last seconds can be read, up to where the stream says it ends:
  // a file cut short fails here rather than halfway through a stage.
  const double tail_from = std::max(0.0, info.duration_s - 2.0);
  double last_end = 0;
  av::PacketPtr packet(av_packet_alloc());
  auto ts = static_cast<int64_t>((tail_from + in.start_s) / av_q2d(video->time_base));
  if (av_seek_frame(in.format.get(), in.stream, ts, AVSEEK_FLAG_BACKWARD) < 0) {
    av_seek_frame(in.format.get(), in.stream, 0, AVSEEK_FLAG_BACKWARD);
  }
  for (;;) {
    int rc = av_read_frame(in.format.get(), packet.get());
    if (rc == AVERROR_EOF) break;
    if (rc < 0) {
      fail(out, InputError::kUndecodableVideo,
           fmt::format("cut short or damaged after {:.2f} s: {}", last_end, av::error_text(rc)));
      return false;
    }
    // Every stream's packets: the declared duration may be the container's, audio included.
    if (packet->pts != AV_NOPTS_VALUE) {
      const AVStream* stream = in.format->streams[packet->stream_index];
      const int64_t end = packet->pts + std::max<int64_t>(packet->duration, 0);
      last_end =
          std::max(last_end, static_cast<double>(end) * av_q2d(stream->time_base) - in.start_s);
    }
    av_packet_unref(packet.get());
  }
  // Some slack for containers that round their duration; a few frames, at least a quarter second.
  if (info.duration_s > 0 && last_end + std::max(0.25, 3 / info.fps) < info.duration_s) {
    fail(out, InputError::kUndecodableVideo,
         fmt::format("cut short: its frames end at {:.2f} s of the {:.2f} s it declares", last_end,
                     info.duration_s));
    return false;
  }
  if (info.duration_s <= 0) {
    info.duration_s = last_end;
    info.frames = std::llround(info.duration_s * info.fps);
  }
  // A rate the codec claims is no use when the frames' timestamps never advance: the frames the
  // container counts would not fit in its duration at that rate (by far: variable frame rates
  // are fine).
  if (info.duration_s <= 0 ||
      (video->nb_frames > 1 && info.duration_s * info.fps * 4 < double(video->nb_frames))) {
    fail(out, InputError::kBadFrameRate,
         fmt::format("its timestamps do not advance: {} frames in {:.3f} s (container frame "
                     "rate {}/{})",
                     video->nb_frames, info.duration_s, video->avg_frame_rate.num,
                     video->avg_frame_rate.den));
    return false;
  }
  out->info = std::move(info);
  return true;
}
