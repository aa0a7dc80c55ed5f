// winnow_audio_decode (core/audio_decode.h): a whole audio stream decoded to float samples,
// resampled by libswresample when asked, and refused when it cannot be read through.
extern "C" {
#include <libswresample/swresample.h>
}

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "core/audio_decode.h"
#include "media/codecs/audio/audio_input.h"
#include "media/codecs/audio/riff_length.h"

namespace winnow {

namespace {

struct ResamplerFree {
  void operator()(SwrContext* s) const { swr_free(&s); }
};

// Frames into interleaved floats at the output rate, the channels as they came (a mono
// request is averaged afterwards, as NeMo's mono conversion averages).
class SampleSink {
 public:
  SampleSink(int out_rate, AudioSamples& out) : out_rate_(out_rate), out_(out) {}

  bool add(const AVFrame* frame, std::string& error) {
    if (!resampler_ && !open(frame, error)) return false;
    return convert(frame->extended_data, frame->nb_samples, error);
  }
  // Drains what the resampler still holds.
  bool finish(std::string& error) { return !resampler_ || convert(nullptr, 0, error); }

 private:
  bool open(const AVFrame* frame, std::string& error) {
    AVChannelLayout layout{};
    av_channel_layout_default(&layout, frame->ch_layout.nb_channels);
    out_.channels = layout.nb_channels;
    out_.sample_rate = out_rate_ > 0 ? out_rate_ : frame->sample_rate;
    SwrContext* raw = nullptr;
    int rc = swr_alloc_set_opts2(&raw, &layout, AV_SAMPLE_FMT_FLT, out_.sample_rate, &layout,
                                 static_cast<AVSampleFormat>(frame->format), frame->sample_rate,
                                 0, nullptr);
    resampler_.reset(raw);
    if (rc >= 0) rc = swr_init(raw);
    if (rc < 0) error = "cannot set up the resampler: " + av::error_text(rc);
    return rc >= 0;
  }

  bool convert(uint8_t* const* in, int count, std::string& error) {
    const int room = swr_get_out_samples(resampler_.get(), count) + 32;
    const size_t at = out_.samples.size();
    out_.samples.resize(at + size_t(room) * out_.channels);
    auto* dest = reinterpret_cast<uint8_t*>(out_.samples.data() + at);
    const int made = swr_convert(resampler_.get(), &dest, room,
                                 const_cast<const uint8_t**>(in), count);
    if (made < 0) {
      error = "cannot resample: " + av::error_text(made);
      return false;
    }
    out_.samples.resize(at + size_t(made) * out_.channels);
    return true;
  }

  int out_rate_;
  AudioSamples& out_;
  std::unique_ptr<SwrContext, ResamplerFree> resampler_;
};

// Sends one packet (null: the end) and hands each frame it gives to `sink`.
bool decode_packet(av::AudioInput& in, const AVPacket* packet, AVFrame* frame, SampleSink& sink,
                   std::string& error) {
  int rc = avcodec_send_packet(in.decoder.get(), packet);
  if (rc < 0 && rc != AVERROR_EOF) {
    error = "a damaged packet: " + av::error_text(rc);
    return false;
  }
  while ((rc = avcodec_receive_frame(in.decoder.get(), frame)) >= 0) {
    const bool ok = sink.add(frame, error);
    av_frame_unref(frame);
    if (!ok) return false;
  }
  if (rc != AVERROR(EAGAIN) && rc != AVERROR_EOF) {
    error = "cannot decode: " + av::error_text(rc);
    return false;
  }
  return true;
}

bool decode_all(av::AudioInput& in, SampleSink& sink, std::string& error) {
  av::PacketPtr packet(av_packet_alloc());
  av::FramePtr frame(av_frame_alloc());
  for (;;) {
    int rc = av_read_frame(in.format.get(), packet.get());
    if (rc == AVERROR_EOF) break;
    if (rc < 0) {
      error = "cannot read on: " + av::error_text(rc);
      return false;
    }
    bool ok = packet->stream_index != in.stream ||
              decode_packet(in, packet.get(), frame.get(), sink, error);
    av_packet_unref(packet.get());
    if (!ok) return false;
  }
  return decode_packet(in, nullptr, frame.get(), sink, error) && sink.finish(error);
}

// A WAV whose data chunk runs past the end of the file (libavformat reads what is there).
bool wav_cut_short(const char* path, std::string_view bytes, std::string& error) {
  std::string head(4096, '\0');
  uint64_t size = bytes.size();
  if (path) {
    std::FILE* f = std::fopen(path, "rb");
    if (!f) return false;
    head.resize(std::fread(head.data(), 1, head.size(), f));
    std::fseek(f, 0, SEEK_END);
    size = static_cast<uint64_t>(std::ftell(f));
    std::fclose(f);
  } else {
    head.assign(bytes.substr(0, head.size()));
  }
  auto data = av::riff_data(head, size);
  if (!data || data->available >= data->declared) return false;
  error = fmt::format("cut short: {} bytes of samples of the {} its header declares",
                      data->available, data->declared);
  return true;
}

void fail(AudioDecode* out, InputError kind, std::string message) {
  out->audio.reset();
  out->error = kind;
  out->message = std::move(message);
}

}  // namespace

}  // namespace winnow

extern "C" __attribute__((visibility("default"))) bool winnow_audio_decode(
    const char* path, const char* bytes, size_t size, int sample_rate, bool mono,
    winnow::AudioDecode* out) {
  using namespace winnow;
  av_log_set_level(AV_LOG_FATAL);  // errors come back as records, not as noise on stderr
  av::AudioInput in;
  InputError kind = InputError::kUndecodableAudio;
  std::string error;
  if (!av::open_audio(path, {bytes, size}, in, kind, error)) {
    fail(out, kind, error);
    return false;
  }
  if (wav_cut_short(path, {bytes, size}, error)) {
    fail(out, InputError::kUndecodableAudio, error);
    return false;
  }
  AudioSamples audio;
  audio.codec = avcodec_get_name(in.audio()->codecpar->codec_id);
  audio.container = in.format->iformat->name;
  SampleSink sink(sample_rate, audio);
  if (!decode_all(in, sink, error)) {
    fail(out, InputError::kUndecodableAudio,
         fmt::format("{} (after {:.2f} s)", error, audio.duration_s()));
    return false;
  }
  if (audio.frames() == 0) {
    fail(out, InputError::kEmptyAudio, "no audio samples (zero-length audio)");
    return false;
  }
  // A file cut short: fewer samples than the container declares (with slack for codecs'
  // padding and priming, a tenth of a second or 2%).
  const double declared = in.declared_s();
  if (declared > 0 && audio.duration_s() + std::max(0.1, declared * 0.02) < declared) {
    fail(out, InputError::kUndecodableAudio,
         fmt::format("cut short: its samples end at {:.2f} s of the {:.2f} s it declares",
                     audio.duration_s(), declared));
    return false;
  }
  if (mono) av::average_channels(audio);
  out->audio = std::move(audio);
  return true;
}
