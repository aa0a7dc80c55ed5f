// winnow_video_jpeg (media/video_codecs.h): a decoded frame as a JPEG, with the same MJPEG encoder
// the contact sheets use, so callers outside the module need no image codec of their own.
#include "media/codecs/video/av_support.h"
#include "media/video_codecs.h"

extern "C" __attribute__((visibility("default"))) bool winnow_video_jpeg(
    const uint8_t* bgr, int width, int height, int qscale, std::string* jpeg, std::string* error) {
  av_log_set_level(AV_LOG_FATAL);
  *jpeg = winnow::av::encode_jpeg(bgr, width, height, qscale);
  if (jpeg->empty()) {
    *error = "cannot encode a " + std::to_string(width) + "x" + std::to_string(height) + " JPEG";
    return false;
  }
  return true;
}
