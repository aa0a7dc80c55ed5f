#include "media/image_thumbnail.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "core/codec_module.h"
#include "core/doc_batch.h"
#include "media/clip_thumbnail.h"

namespace winnow {

namespace {

using Imencode = bool (*)(const cv::Mat* image, int quality, unsigned char** out, size_t* size);
using FreeEncoded = void (*)(unsigned char* bytes);

struct Encoder {
  Imencode encode = nullptr;
  FreeEncoded release = nullptr;
};

// media/codecs/image_codecs_module.cpp, loaded once (core/codec_module.h); a report without
// thumbnails (not a failed run) when it does not load.
const Encoder& encoder() {
  static const Encoder loaded = [] {
    Encoder e;
    std::string why;
    e.encode = reinterpret_cast<Imencode>(codec_module_symbol(
        CodecModule::kImageCodecs, "winnow_imencode_jpeg", &why));
    e.release = reinterpret_cast<FreeEncoded>(codec_module_symbol(
        CodecModule::kImageCodecs, "winnow_free_encoded", &why));
    if (!e.release) e.encode = nullptr;
    return e;
  }();
  return loaded;
}

}  // namespace

std::string thumbnail_jpeg(const ImagePixels& pixels, int max_side, int quality) {
  if (pixels.width <= 0 || pixels.height <= 0 || max_side <= 0) return {};
  const Encoder& e = encoder();
  if (!e.encode) return {};
  cv::Mat image(pixels.height, pixels.width, CV_8UC3, const_cast<uint8_t*>(pixels.bgr.data()));
  double scale = std::min(1.0, static_cast<double>(max_side) / std::max(pixels.width,
                                                                         pixels.height));
  cv::Mat small = image;
  if (scale < 1.0) {
    cv::Size size(std::max(1, static_cast<int>(std::lround(pixels.width * scale))),
                  std::max(1, static_cast<int>(std::lround(pixels.height * scale))));
    cv::resize(image, small, size, 0, 0, cv::INTER_AREA);
  }
  unsigned char* bytes = nullptr;
  size_t size = 0;
  if (!e.encode(&small, quality, &bytes, &size)) return {};
  std::string out(reinterpret_cast<const char*>(bytes), size);
  e.release(bytes);
  return out;
}

std::string thumbnail_jpeg(std::string_view encoded, int max_side, int quality) {
  ImagePixels pixels;
  if (!decode_working_image(encoded, pixels, nullptr)) return {};
  return thumbnail_jpeg(pixels, max_side, quality);
}

namespace {

// A referenced image file's bytes (its byte range when it has one); a sampled item only, and
// never more than kMaxReadBytes.
constexpr uint64_t kMaxReadBytes = 64u << 20;

std::string read_referenced(const Payload& payload) {
  std::ifstream in(payload.path, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  auto file_size = static_cast<uint64_t>(std::max<std::streamoff>(0, in.tellg()));
  uint64_t end = payload.byte_end > 0 ? std::min(payload.byte_end, file_size) : file_size;
  if (payload.byte_begin >= end || end - payload.byte_begin > kMaxReadBytes) return {};
  std::string bytes(end - payload.byte_begin, '\0');
  in.seekg(static_cast<std::streamoff>(payload.byte_begin));
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return in ? bytes : std::string();
}

}  // namespace

std::string item_thumbnail(const DocBatch& batch, size_t row) {
  if (batch.kind(row) == ItemKind::kClip || batch.kind(row) == ItemKind::kVideo) {
    return clip_thumbnail(batch, row);
  }
  if (batch.kind(row) != ItemKind::kImage) return {};
  const Payload* payload = batch.payload(row);
  if (!payload) return {};
  if (payload->in_memory()) return thumbnail_jpeg(payload->bytes());
  return thumbnail_jpeg(std::string_view(read_referenced(*payload)));
}

}  // namespace winnow
