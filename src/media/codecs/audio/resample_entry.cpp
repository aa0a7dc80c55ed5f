// winnow_audio_resample (core/audio_decode.h): float samples already decoded, at another rate
// through libswresample and, when asked, averaged to one channel; what `resample` does to the
// samples the reader decoded, instead of decoding the file again.
extern "C" {
#include <libswresample/swresample.h>
}

#include <string>

#include "core/audio_decode.h"
#include "media/codecs/audio/audio_input.h"

namespace winnow {

namespace {

struct ResamplerFree {
  void operator()(SwrContext* s) const { swr_free(&s); }
};

bool resample_interleaved(const AudioSamples& in, int rate, AudioSamples& out, std::string& error) {
  AVChannelLayout layout{};
  av_channel_layout_default(&layout, in.channels);
  SwrContext* raw = nullptr;
  int rc = swr_alloc_set_opts2(&raw, &layout, AV_SAMPLE_FMT_FLT, rate, &layout, AV_SAMPLE_FMT_FLT,
                               in.sample_rate, 0, nullptr);
  std::unique_ptr<SwrContext, ResamplerFree> resampler(raw);
  if (rc >= 0) rc = swr_init(raw);
  const int frames = static_cast<int>(in.frames());
  const int room = rc < 0 ? 0 : swr_get_out_samples(raw, frames) + 32;
  out.samples.resize(size_t(room) * in.channels);
  auto* dest = reinterpret_cast<uint8_t*>(out.samples.data());
  const auto* source = reinterpret_cast<const uint8_t*>(in.samples.data());
  int made = rc < 0 ? rc : swr_convert(raw, &dest, room, &source, frames);
  if (made < 0) {
    error = "cannot resample: " + av::error_text(made);
    return false;
  }
  out.samples.resize(size_t(made) * in.channels);
  // What the filter still holds at the end.
  const int more = swr_get_out_samples(raw, 0);
  if (more > 0) {
    const size_t at = out.samples.size();
    out.samples.resize(at + size_t(more) * in.channels);
    uint8_t* end = reinterpret_cast<uint8_t*>(out.samples.data() + at);
    const int flushed = swr_convert(raw, &end, more, nullptr, 0);
    out.samples.resize(at + size_t(std::max(flushed, 0)) * in.channels);
  }
  return true;
}

}  // namespace

}  // namespace winnow

extern "C" __attribute__((visibility("default"))) bool winnow_audio_resample(
    const winnow::AudioSamples* in, int sample_rate, bool mono, winnow::AudioSamples* out,
    std::string* error) {
  using namespace winnow;
  out->channels = in->channels;
  out->sample_rate = sample_rate > 0 ? sample_rate : in->sample_rate;
  out->codec = in->codec;
  out->container = in->container;
  if (out->sample_rate == in->sample_rate) {
    out->samples = in->samples;
  } else if (!resample_interleaved(*in, out->sample_rate, *out, *error)) {
    return false;
  }
  if (mono) av::average_channels(*out);
  return true;
}
