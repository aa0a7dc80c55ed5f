#include "core/audio_decode.h"

#include "core/codec_module.h"

namespace winnow {

namespace {

// The module's entry point: `path`, or `size` bytes at `bytes` when path is null.
using DecodeFunction = bool (*)(const char* path, const char* bytes, size_t size, int sample_rate,
                                bool mono, AudioDecode* out);

DecodeFunction load_decoder(std::string* why) {
  return reinterpret_cast<DecodeFunction>(codec_module_symbol(
      CodecModule::kVideoCodecs, "winnow_audio_decode", why));
}

using ResampleFunction = bool (*)(const AudioSamples* in, int sample_rate, bool mono,
                                  AudioSamples* out, std::string* error);

ResampleFunction load_resampler(std::string* why) {
  return reinterpret_cast<ResampleFunction>(codec_module_symbol(
      CodecModule::kVideoCodecs, "winnow_audio_resample", why));
}

AudioDecode decode(const char* path, std::string_view bytes, const AudioRequest& request) {
  static std::string why;
  static const DecodeFunction decoder = load_decoder(&why);
  AudioDecode result;
  if (!decoder) {
    result.error = InputError::kUnsupportedCodec;
    result.message = "cannot load the audio decoders (libwinnow_video_codecs.so); tried:" + why;
    return result;
  }
  decoder(path, bytes.data(), bytes.size(), request.sample_rate, request.mono, &result);
  return result;
}

}  // namespace

AudioDecode decode_audio_file(const std::string& path, const AudioRequest& request) {
  return decode(path.c_str(), {}, request);
}

AudioDecode decode_audio_bytes(std::string_view bytes, const AudioRequest& request) {
  return decode(nullptr, bytes, request);
}

AudioDecode resample_audio(const AudioSamples& audio, const AudioRequest& request) {
  static std::string why;
  static const ResampleFunction resampler = load_resampler(&why);
  AudioDecode result;
  result.error = InputError::kUndecodableAudio;
  if (!resampler) {
    result.message = "cannot load the audio resampler (libwinnow_video_codecs.so); tried:" + why;
    return result;
  }
  AudioSamples out;
  if (resampler(&audio, request.sample_rate, request.mono, &out, &result.message)) {
    result.audio = std::move(out);
  }
  return result;
}

}  // namespace winnow
