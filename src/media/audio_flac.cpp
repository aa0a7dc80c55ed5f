#include "media/audio_flac.h"

#include "core/codec_module.h"

namespace winnow {

namespace {

using EncodeFunction = bool (*)(const float* samples, int64_t frames, int channels, int rate,
                                std::string* out, std::string* error);

EncodeFunction load_encoder(std::string* why) {
  return reinterpret_cast<EncodeFunction>(codec_module_symbol(
      CodecModule::kVideoCodecs, "winnow_audio_encode_flac", why));
}

}  // namespace

Result<std::string> encode_flac(const AudioSamples& audio) {
  static std::string why;
  static const EncodeFunction encoder = load_encoder(&why);
  if (!encoder) return Status::error("cannot load the audio encoders; tried:" + why);
  std::string bytes, error;
  if (!encoder(audio.samples.data(), audio.frames(), audio.channels, audio.sample_rate, &bytes,
               &error)) {
    return Status::error(error);
  }
  return bytes;
}

}  // namespace winnow
