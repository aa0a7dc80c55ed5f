#include "media/image_pixels.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>  // the IMREAD_* flags only: decoding is in the module
#include <opencv2/imgproc.hpp>
#include <string>

#include "core/codec_module.h"
#include "core/image_header.h"

namespace winnow {

namespace {

// OpenCV's own thread pool would run beside the stage's workers, outside the CPU budget the
// executor keeps: every call here runs on its caller's thread.
void single_threaded() {
  static std::once_flag once;
  std::call_once(once, [] { cv::setNumThreads(0); });
}

using Imdecode = bool (*)(const void* data, size_t size, int flags, cv::Mat* out);

// media/codecs/image_codecs_module.cpp, loaded once (core/codec_module.h).
Imdecode load_imdecode() {
  std::string why;
  if (void* f = codec_module_symbol(CodecModule::kImageCodecs, "winnow_imdecode", &why)) {
    return reinterpret_cast<Imdecode>(f);
  }
  fmt::print(stderr,
             "winnow: cannot load the image decoders (libwinnow_image_codecs.so); every "
             "image will be undecodable. Tried:{}\n",
             why);
  return nullptr;
}

cv::Mat decode(std::string_view bytes, int flags) {
  static const Imdecode imdecode = load_imdecode();
  cv::Mat image;
  if (imdecode) imdecode(bytes.data(), bytes.size(), flags, &image);
  return image;
}

void store(const cv::Mat& image, const ImageHeader& header, ImagePixels& out) {
  out.width = image.cols;
  out.height = image.rows;
  out.source_width = header.width;
  out.source_height = header.height;
  out.bgr.resize(static_cast<size_t>(image.cols) * image.rows * 3);
  for (int y = 0; y < image.rows; ++y) {
    std::memcpy(out.bgr.data() + static_cast<size_t>(y) * image.cols * 3, image.ptr(y),
                static_cast<size_t>(image.cols) * 3);
  }
}

}  // namespace

bool decode_working_image(std::string_view bytes, ImagePixels& out, std::string* error) {
  single_threaded();
  auto header = ImageHeader::parse(bytes);
  if (!header) {
    if (error) *error = "no image header winnow can read";
    return false;
  }
  int flags = cv::IMREAD_COLOR;
  const uint32_t longer = std::max(header->width, header->height);
  // The largest libjpeg scale that stays at or above the working side (the rest by area below).
  if (header->media_type == "image/jpeg") {
    if (longer >= 8u * kWorkingSide) {
      flags = cv::IMREAD_REDUCED_COLOR_8;
    } else if (longer >= 4u * kWorkingSide) {
      flags = cv::IMREAD_REDUCED_COLOR_4;
    } else if (longer >= 2u * kWorkingSide) {
      flags = cv::IMREAD_REDUCED_COLOR_2;
    }
  }
  cv::Mat image = decode(bytes, flags);
  if (image.empty()) {
    if (error) *error = "the " + header->media_type + " decoder cannot read its data";
    return false;
  }
  // Area averaging by a whole factor: OpenCV's fast path (a non-integer INTER_AREA costs more
  // than the decode), and no interpolation to blur lines or alias edges.
  const int side = std::max(image.cols, image.rows);
  const int factor = (side + kWorkingSide - 1) / kWorkingSide;
  if (factor >= 2) {
    cv::Mat reduced;
    cv::resize(image, reduced,
               cv::Size(std::max(1, image.cols / factor), std::max(1, image.rows / factor)), 0, 0,
               cv::INTER_AREA);
    image = reduced;
  }
  store(image, *header, out);
  return true;
}

bool decode_full_image(std::string_view bytes, ImagePixels& out, std::string* error) {
  single_threaded();
  auto header = ImageHeader::parse(bytes);
  if (!header) {
    if (error) *error = "no image header winnow can read";
    return false;
  }
  cv::Mat image = decode(bytes, cv::IMREAD_COLOR);
  if (image.empty()) {
    if (error) *error = "the " + header->media_type + " decoder cannot read its data";
    return false;
  }
  store(image, *header, out);
  return true;
}

bool hash_full_pixels(std::string_view bytes, uint64_t& hi, uint64_t& lo) {
  single_threaded();
  cv::Mat image = decode(bytes, cv::IMREAD_COLOR);
  if (image.empty()) return false;
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  int size[2] = {image.cols, image.rows};
  XXH3_128bits_update(state, size, sizeof(size));
  for (int y = 0; y < image.rows; ++y) {
    XXH3_128bits_update(state, image.ptr(y), static_cast<size_t>(image.cols) * 3);
  }
  XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  hi = h.high64;
  lo = h.low64;
  return true;
}

}  // namespace winnow
