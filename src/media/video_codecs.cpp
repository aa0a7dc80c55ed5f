#include "media/video_codecs.h"

#include "core/codec_module.h"

namespace winnow {

namespace {

using DecodeFunction = bool (*)(const char* path, const FrameRequest* request,
                                const FrameCallback* on_frame, std::string* error);
using TranscodeFunction = bool (*)(const char* path, const std::vector<ClipSpan>* spans,
                                   const EncodeSettings* settings, std::vector<EncodedClip>* clips,
                                   std::string* error);

using EncoderCheckFunction = bool (*)(const char* name, std::string* error);

using JpegFunction = bool (*)(const uint8_t* bgr, int width, int height, int qscale,
                              std::string* jpeg, std::string* error);

template <typename F>
F load(const char* symbol, std::string* why) {
  return reinterpret_cast<F>(
      codec_module_symbol(CodecModule::kVideoCodecs, symbol, why));
}

Status missing(const std::string& why) {
  return Status::errorf("cannot load the video codecs (libwinnow_video_codecs.so); tried:{}", why);
}

}  // namespace

Status decode_video_frames(const std::string& path, const FrameRequest& request,
                           const FrameCallback& on_frame) {
  static std::string why;
  static const auto decode = load<DecodeFunction>("winnow_video_frames", &why);
  if (!decode) return missing(why);
  std::string error;
  if (!decode(path.c_str(), &request, &on_frame, &error)) return Status::error(error);
  return Status::ok();
}

Result<std::string> encode_frame_jpeg(const VideoFrame& frame, int qscale) {
  static std::string why;
  static const auto encode = load<JpegFunction>("winnow_video_jpeg", &why);
  if (!encode) return missing(why);
  std::string jpeg, error;
  if (!encode(frame.bgr.data(), frame.width, frame.height, qscale, &jpeg, &error)) {
    return Status::error(error);
  }
  return jpeg;
}

Status check_video_encoder(const std::string& name) {
  static std::string why;
  static const auto check = load<EncoderCheckFunction>("winnow_video_encoder_check", &why);
  if (!check) return missing(why);
  std::string error;
  if (!check(name.c_str(), &error)) return Status::error(error);
  return Status::ok();
}

Status transcode_clips(const std::string& path, const std::vector<ClipSpan>& spans,
                       const EncodeSettings& settings, std::vector<EncodedClip>& clips) {
  static std::string why;
  static const auto transcode = load<TranscodeFunction>("winnow_video_transcode", &why);
  if (!transcode) return missing(why);
  std::string error;
  if (!transcode(path.c_str(), &spans, &settings, &clips, &error)) return Status::error(error);
  return Status::ok();
}

}  // namespace winnow
