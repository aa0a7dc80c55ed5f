// winnow_video_encoder_check (media/video_codecs.h): whether an encoder of this FFmpeg build
// opens here, tried on a small picture with the settings clips use. A hardware encoder
// (h264_nvenc) is in Debian's libavcodec whether or not the machine has the device and
// driver; only opening it tells, and telling at load time beats failing every clip.
#include "media/codecs/video/av_support.h"

extern "C" __attribute__((visibility("default"))) bool winnow_video_encoder_check(
    const char* name, std::string* error) {
  using namespace winnow;
  av_log_set_level(AV_LOG_FATAL);
  const AVCodec* codec = avcodec_find_encoder_by_name(name);
  if (!codec) {
    *error = std::string("this FFmpeg build has no encoder named ") + name;
    return false;
  }
  if (codec->type != AVMEDIA_TYPE_VIDEO) {
    *error = std::string(name) + " is not a video encoder";
    return false;
  }
  av::CodecPtr encoder(avcodec_alloc_context3(codec));
  encoder->width = 256;
  encoder->height = 256;
  encoder->pix_fmt = AV_PIX_FMT_YUV420P;
  encoder->time_base = {1, 25};
  encoder->framerate = {25, 1};
  encoder->bit_rate = 4'000'000;
  encoder->thread_count = 1;
  if (int rc = avcodec_open2(encoder.get(), codec, nullptr); rc < 0) {
    *error = std::string("cannot open the encoder ") + name + ": " + av::error_text(rc);
    return false;
  }
  return true;
}
