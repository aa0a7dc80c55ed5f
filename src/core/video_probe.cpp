#include "core/video_probe.h"

#include "core/codec_module.h"

namespace winnow {

namespace {

using ProbeFunction = bool (*)(const char* path, VideoProbe* out);

ProbeFunction load_probe(std::string* why) {
  return reinterpret_cast<ProbeFunction>(codec_module_symbol(
      CodecModule::kVideoCodecs, "winnow_video_probe", why));
}

}  // namespace

VideoProbe probe_video(const std::string& path) {
  static std::string why;
  static const ProbeFunction probe = load_probe(&why);
  VideoProbe result;
  if (!probe) {
    result.error = InputError::kUnsupportedCodec;
    result.message = "cannot load the video decoders (libwinnow_video_codecs.so); tried:" + why;
    return result;
  }
  probe(path.c_str(), &result);
  return result;
}

}  // namespace winnow
