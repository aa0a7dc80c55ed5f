#include "media/codecs/video/av_support.h"

#include <cmath>

namespace winnow::av {

std::string error_text(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

double VideoInput::seconds(int64_t pts) const {
  if (pts == AV_NOPTS_VALUE) return 0;
  return static_cast<double>(pts) * av_q2d(video()->time_base) - start_s;
}

double VideoInput::fps() const {
  AVRational rate = video()->avg_frame_rate;
  if (rate.num <= 0 || rate.den <= 0) rate = video()->r_frame_rate;
  if (rate.num <= 0 || rate.den <= 0) return 0;
  return av_q2d(rate);
}

bool open_video(const char* path, bool motion_vectors, VideoInput& in, std::string& error) {
  AVFormatContext* raw = nullptr;
  if (int rc = avformat_open_input(&raw, path, nullptr, nullptr); rc < 0) {
    error = "cannot open: " + error_text(rc);
    return false;
  }
  in.format.reset(raw);
  if (int rc = avformat_find_stream_info(raw, nullptr); rc < 0) {
    error = "cannot read its streams: " + error_text(rc);
    return false;
  }
  in.stream = av_find_best_stream(raw, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (in.stream < 0) {
    error = "no video stream";
    return false;
  }
  const int audio = av_find_best_stream(raw, AVMEDIA_TYPE_AUDIO, -1, in.stream, nullptr, 0);
  in.audio = audio >= 0 ? audio : -1;
  AVStream* video = in.video();
  in.start_s = video->start_time == AV_NOPTS_VALUE
                   ? 0
                   : static_cast<double>(video->start_time) * av_q2d(video->time_base);
  const AVCodec* codec = avcodec_find_decoder(video->codecpar->codec_id);
  if (!codec) {
    error = "no decoder for its video codec";
    return false;
  }
  in.decoder.reset(avcodec_alloc_context3(codec));
  avcodec_parameters_to_context(in.decoder.get(), video->codecpar);
  in.decoder->thread_count = 1;  // the executor's workers are the parallelism
  in.decoder->pkt_timebase = video->time_base;
  AVDictionary* options = nullptr;
  if (motion_vectors) av_dict_set(&options, "flags2", "+export_mvs", 0);
  int rc = avcodec_open2(in.decoder.get(), codec, &options);
  av_dict_free(&options);
  if (rc < 0) {
    error = "cannot open its decoder: " + error_text(rc);
    return false;
  }
  return true;
}

bool decode_from(VideoInput& in, double from_s,
                 const std::function<bool(AVFrame* frame, double time_s)>& on_frame,
                 std::string& error, const std::function<void(const AVPacket* packet)>* on_audio,
                 const std::function<void(const AVPacket* packet)>* on_video) {
  AVStream* video = in.video();
  if (from_s > 0) {
    auto ts = static_cast<int64_t>(std::floor((from_s + in.start_s) / av_q2d(video->time_base)));
    // A failed seek (an unseekable file) leaves decoding to start at the beginning.
    if (av_seek_frame(in.format.get(), in.stream, ts, AVSEEK_FLAG_BACKWARD) >= 0) {
      avcodec_flush_buffers(in.decoder.get());
    }
  }
  PacketPtr packet(av_packet_alloc());
  FramePtr frame(av_frame_alloc());
  bool go_on = true;
  auto drain = [&]() -> bool {
    while (go_on) {
      int rc = avcodec_receive_frame(in.decoder.get(), frame.get());
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return true;
      if (rc < 0) return true;  // a damaged frame: the next ones may decode
      go_on = on_frame(frame.get(), in.seconds(frame->best_effort_timestamp));
      av_frame_unref(frame.get());
    }
    return true;
  };
  while (go_on) {
    int rc = av_read_frame(in.format.get(), packet.get());
    if (rc == AVERROR_EOF) break;
    if (rc < 0) {
      error = "cannot read on: " + error_text(rc);
      return false;
    }
    if (packet->stream_index == in.stream) {
      if (on_video) (*on_video)(packet.get());
      // A packet the decoder refuses is skipped: its frames are lost, not the rest.
      avcodec_send_packet(in.decoder.get(), packet.get());
      drain();
    } else if (on_audio && packet->stream_index == in.audio) {
      (*on_audio)(packet.get());
    }
    av_packet_unref(packet.get());
  }
  if (go_on) {
    avcodec_send_packet(in.decoder.get(), nullptr);
    drain();
  }
  return true;
}

bool Scaler::scale(const AVFrame* frame, int width, int height, uint8_t* bgr) {
  if (!context_ || in_w_ != frame->width || in_h_ != frame->height || in_format_ != frame->format ||
      out_w_ != width || out_h_ != height) {
    context_.reset(sws_getContext(
        frame->width, frame->height, static_cast<AVPixelFormat>(frame->format), width, height,
        AV_PIX_FMT_BGR24, SWS_AREA | SWS_ACCURATE_RND | SWS_BITEXACT, nullptr, nullptr, nullptr));
    in_w_ = frame->width;
    in_h_ = frame->height;
    in_format_ = frame->format;
    out_w_ = width;
    out_h_ = height;
  }
  if (!context_) return false;
  uint8_t* planes[1] = {bgr};
  int strides[1] = {width * 3};
  return sws_scale(context_.get(), frame->data, frame->linesize, 0, frame->height, planes,
                   strides) == height;
}

std::string encode_jpeg(const uint8_t* bgr, int width, int height, int qscale) {
  const AVCodec* codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG);
  if (!codec) return {};
  CodecPtr enc(avcodec_alloc_context3(codec));
  enc->width = width;
  enc->height = height;
  enc->pix_fmt = AV_PIX_FMT_YUVJ420P;
  enc->time_base = {1, 1};
  enc->flags |= AV_CODEC_FLAG_QSCALE | AV_CODEC_FLAG_BITEXACT;
  enc->global_quality = FF_QP2LAMBDA * qscale;
  enc->thread_count = 1;
  if (avcodec_open2(enc.get(), codec, nullptr) < 0) return {};
  FramePtr frame(av_frame_alloc());
  frame->format = AV_PIX_FMT_YUVJ420P;
  frame->width = width;
  frame->height = height;
  frame->quality = enc->global_quality;
  if (av_frame_get_buffer(frame.get(), 0) < 0) return {};
  ScalePtr sws(sws_getContext(width, height, AV_PIX_FMT_BGR24, width, height, AV_PIX_FMT_YUVJ420P,
                              SWS_BICUBIC | SWS_BITEXACT, nullptr, nullptr, nullptr));
  const uint8_t* planes[1] = {bgr};
  int strides[1] = {width * 3};
  sws_scale(sws.get(), planes, strides, 0, height, frame->data, frame->linesize);
  PacketPtr packet(av_packet_alloc());
  std::string jpeg;
  if (avcodec_send_frame(enc.get(), frame.get()) < 0) return {};
  avcodec_send_frame(enc.get(), nullptr);
  while (avcodec_receive_packet(enc.get(), packet.get()) >= 0) {
    jpeg.append(reinterpret_cast<const char*>(packet->data), static_cast<size_t>(packet->size));
    av_packet_unref(packet.get());
  }
  return jpeg;
}

}  // namespace winnow::av
