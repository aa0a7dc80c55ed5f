// winnow_audio_encode_flac (media/audio_flac.h): float samples as a FLAC file in memory, 16-bit,
// bit-exact (no encoder version in its tags), so the same samples give the same bytes.
#include <algorithm>
#include <cmath>
#include <string>

#include "media/codecs/video/av_support.h"

namespace winnow {

namespace {

struct DynamicBuffer {
  AVIOContext* io = nullptr;
  ~DynamicBuffer() {
    if (!io) return;
    uint8_t* bytes = nullptr;
    avio_close_dyn_buf(io, &bytes);
    av_free(bytes);
  }
  std::string take() {
    uint8_t* bytes = nullptr;
    const int size = avio_close_dyn_buf(io, &bytes);
    io = nullptr;
    std::string out(reinterpret_cast<const char*>(bytes), size > 0 ? size_t(size) : 0);
    av_free(bytes);
    return out;
  }
};

av::CodecPtr open_encoder(int channels, int rate, std::string& error) {
  const AVCodec* codec = avcodec_find_encoder(AV_CODEC_ID_FLAC);
  if (!codec) {
    error = "this FFmpeg has no FLAC encoder";
    return nullptr;
  }
  av::CodecPtr encoder(avcodec_alloc_context3(codec));
  encoder->sample_fmt = AV_SAMPLE_FMT_S16;
  encoder->sample_rate = rate;
  av_channel_layout_default(&encoder->ch_layout, channels);
  encoder->time_base = {1, rate};
  encoder->flags |= AV_CODEC_FLAG_BITEXACT | AV_CODEC_FLAG_GLOBAL_HEADER;
  if (int rc = avcodec_open2(encoder.get(), codec, nullptr); rc < 0) {
    error = "cannot open the FLAC encoder: " + av::error_text(rc);
    return nullptr;
  }
  return encoder;
}

// Hands every packet the encoder has ready to the muxer.
bool drain(AVCodecContext* encoder, AVFormatContext* muxer, std::string& error) {
  av::PacketPtr packet(av_packet_alloc());
  int rc;
  while ((rc = avcodec_receive_packet(encoder, packet.get())) >= 0) {
    packet->stream_index = 0;
    av_packet_rescale_ts(packet.get(), encoder->time_base, muxer->streams[0]->time_base);
    if ((rc = av_write_frame(muxer, packet.get())) < 0) break;
  }
  if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return true;
  error = "cannot encode FLAC: " + av::error_text(rc);
  return false;
}

bool encode_frames(AVCodecContext* encoder, AVFormatContext* muxer, const float* samples,
                   int64_t frames, std::string& error) {
  av::FramePtr frame(av_frame_alloc());
  const int channels = encoder->ch_layout.nb_channels;
  const int step = encoder->frame_size > 0 ? encoder->frame_size : 4096;
  for (int64_t at = 0; at < frames; at += step) {
    frame->nb_samples = static_cast<int>(std::min<int64_t>(step, frames - at));
    frame->format = encoder->sample_fmt;
    av_channel_layout_copy(&frame->ch_layout, &encoder->ch_layout);
    frame->sample_rate = encoder->sample_rate;
    frame->pts = at;
    if (av_frame_get_buffer(frame.get(), 0) < 0) return (error = "out of memory", false);
    auto* out = reinterpret_cast<int16_t*>(frame->data[0]);
    for (int64_t i = 0; i < int64_t(frame->nb_samples) * channels; ++i) {
      const float v = std::clamp(samples[at * channels + i], -1.0f, 1.0f);
      out[i] = static_cast<int16_t>(std::lrint(std::min(v * 32768.0f, 32767.0f)));
    }
    int rc = avcodec_send_frame(encoder, frame.get());
    av_frame_unref(frame.get());
    if (rc < 0) return (error = "cannot encode FLAC: " + av::error_text(rc), false);
    if (!drain(encoder, muxer, error)) return false;
  }
  avcodec_send_frame(encoder, nullptr);
  return drain(encoder, muxer, error);
}

}  // namespace

}  // namespace winnow

extern "C" __attribute__((visibility("default"))) bool winnow_audio_encode_flac(
    const float* samples, int64_t frames, int channels, int rate, std::string* out,
    std::string* error) {
  using namespace winnow;
  av::CodecPtr encoder = open_encoder(channels, rate, *error);
  if (!encoder) return false;
  AVFormatContext* raw = nullptr;
  avformat_alloc_output_context2(&raw, nullptr, "flac", nullptr);
  if (!raw) return (*error = "no FLAC muxer", false);
  std::unique_ptr<AVFormatContext, void (*)(AVFormatContext*)> muxer(raw, avformat_free_context);
  muxer->flags |= AVFMT_FLAG_BITEXACT;
  AVStream* stream = avformat_new_stream(raw, nullptr);
  avcodec_parameters_from_context(stream->codecpar, encoder.get());
  stream->time_base = encoder->time_base;
  DynamicBuffer buffer;
  if (avio_open_dyn_buf(&buffer.io) < 0) return (*error = "out of memory", false);
  raw->pb = buffer.io;
  if (int rc = avformat_write_header(raw, nullptr); rc < 0) {
    return (*error = "cannot write a FLAC header: " + av::error_text(rc), false);
  }
  if (!encode_frames(encoder.get(), raw, samples, frames, *error)) return false;
  if (int rc = av_write_trailer(raw); rc < 0) {
    return (*error = "cannot finish the FLAC file: " + av::error_text(rc), false);
  }
  *out = buffer.take();
  return true;
}
