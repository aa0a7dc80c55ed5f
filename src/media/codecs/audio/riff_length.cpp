#include "media/codecs/audio/riff_length.h"

namespace winnow::av {

namespace {

uint32_t le32(std::string_view bytes, size_t at) {
  auto b = [&](size_t i) { return uint32_t(static_cast<unsigned char>(bytes[at + i])); };
  return b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24;
}

}  // namespace

std::optional<RiffData> riff_data(std::string_view head, uint64_t file_size) {
  if (head.size() < 12 || head.substr(0, 4) != "RIFF" || head.substr(8, 4) != "WAVE") {
    return std::nullopt;
  }
  size_t at = 12;
  while (at + 8 <= head.size()) {
    const uint32_t size = le32(head, at + 4);
    if (head.substr(at, 4) == "data") {
      if (size == 0 || size == 0xFFFFFFFFu) return std::nullopt;
      const uint64_t start = at + 8;
      return RiffData{size, file_size > start ? file_size - start : 0};
    }
    at += 8 + uint64_t(size) + (size & 1);  // chunks are padded to even sizes
  }
  return std::nullopt;
}

}  // namespace winnow::av
