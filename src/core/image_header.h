#pragma once
// ImageHeader: an image's type and dimensions from its first bytes, without decoding it, so
// that a reader can refuse a decompression bomb (pixels over a limit) and an image whose
// header is damaged before any decoder runs. PNG (IHDR), JPEG (the first SOF marker), GIF
// (logical screen), WebP (VP8, VP8L, VP8X), BMP (BITMAPINFOHEADER and later), TIFF (IFD 0).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace winnow {

struct ImageHeader {
  std::string media_type;  // "image/png", ...
  uint32_t width = 0;
  uint32_t height = 0;
  uint64_t pixels() const { return uint64_t{width} * height; }

  // nullopt when the bytes are no image of a known type, or its header is cut short or
  // gives a zero dimension.
  static std::optional<ImageHeader> parse(std::string_view bytes);
  // "image/png", ... from the first bytes; nullopt when no type winnow knows.
  static std::optional<std::string> media_type_of(std::string_view head);
};

}  // namespace winnow
