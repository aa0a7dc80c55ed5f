#include "core/audio_decode.h"

#include "core/codec_module.h"

namespace winnow {

namespace {

// The module's entry point: `path`, or `size` bytes at `bytes` when path is null.
using DecodeFunction = bool (*)(const char* path, const char* bytes, size_t size, int sample_rate,
                                bool mono, AudioDecode* out);

DecodeFunction load_decoder(std::string* why) {
  return reinterpret_cast<DecodeFunction>(codec_module_symbol(
      "libwinnow_video_codecs.so", WINNOW_VIDEO_CODECS_MODULE, "winnow_audio_decode", why));
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

}  // namespace winnow
