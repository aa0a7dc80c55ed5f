#include "core/image_header.h"

namespace winnow {
namespace {

uint32_t be16(std::string_view b, size_t at) {
  return (uint32_t(uint8_t(b[at])) << 8) | uint8_t(b[at + 1]);
}
uint32_t be32(std::string_view b, size_t at) { return (be16(b, at) << 16) | be16(b, at + 2); }
uint32_t le16(std::string_view b, size_t at) {
  return uint8_t(b[at]) | (uint32_t(uint8_t(b[at + 1])) << 8);
}
uint32_t le24(std::string_view b, size_t at) {
  return le16(b, at) | (uint32_t(uint8_t(b[at + 2])) << 16);
}
uint32_t le32(std::string_view b, size_t at) { return le16(b, at) | (le16(b, at + 2) << 16); }

bool png(std::string_view b, ImageHeader& h) {
  if (b.size() < 24 || b.substr(12, 4) != "IHDR") return false;
  h.width = be32(b, 16);
  h.height = be32(b, 20);
  return true;
}

bool jpeg(std::string_view b, ImageHeader& h) {
  size_t at = 2;
  while (at + 4 <= b.size()) {
    if (uint8_t(b[at]) != 0xff) return false;
    uint8_t marker = uint8_t(b[at + 1]);
    if (marker == 0xff) {  // fill byte
      ++at;
      continue;
    }
    if (marker == 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01) {
      at += 2;
      continue;
    }
    if (marker == 0xd9 || marker == 0xda) return false;  // end or scan before any frame
    uint32_t length = be16(b, at + 2);
    if (length < 2) return false;
    // SOF0..SOF15 but DHT (c4), JPG (c8) and DAC (cc)
    if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc) {
      if (at + 9 > b.size()) return false;
      h.height = be16(b, at + 5);
      h.width = be16(b, at + 7);
      return true;
    }
    at += 2 + length;
  }
  return false;
}

bool gif(std::string_view b, ImageHeader& h) {
  if (b.size() < 10) return false;
  h.width = le16(b, 6);
  h.height = le16(b, 8);
  return true;
}

bool webp(std::string_view b, ImageHeader& h) {
  if (b.size() < 30) return false;
  std::string_view chunk = b.substr(12, 4);
  if (chunk == "VP8 ") {
    if (uint8_t(b[23]) != 0x9d || uint8_t(b[24]) != 0x01 || uint8_t(b[25]) != 0x2a) return false;
    h.width = le16(b, 26) & 0x3fff;
    h.height = le16(b, 28) & 0x3fff;
    return true;
  }
  if (chunk == "VP8L") {
    if (uint8_t(b[20]) != 0x2f) return false;
    uint32_t bits = le32(b, 21);
    h.width = (bits & 0x3fff) + 1;
    h.height = ((bits >> 14) & 0x3fff) + 1;
    return true;
  }
  if (chunk == "VP8X") {
    h.width = le24(b, 24) + 1;
    h.height = le24(b, 27) + 1;
    return true;
  }
  return false;
}

bool bmp(std::string_view b, ImageHeader& h) {
  if (b.size() < 26 || le32(b, 14) < 40) return false;
  int32_t w = static_cast<int32_t>(le32(b, 18));
  int32_t ht = static_cast<int32_t>(le32(b, 22));
  if (w <= 0 || ht == 0 || ht == INT32_MIN) return false;
  h.width = static_cast<uint32_t>(w);
  h.height = static_cast<uint32_t>(ht < 0 ? -ht : ht);
  return true;
}

bool tiff(std::string_view b, ImageHeader& h) {
  const bool little = b[0] == 'I';
  auto u16 = [&](size_t at) { return little ? le16(b, at) : be16(b, at); };
  auto u32 = [&](size_t at) { return little ? le32(b, at) : be32(b, at); };
  if (b.size() < 8) return false;
  uint64_t ifd = u32(4);
  if (ifd + 2 > b.size()) return false;
  uint32_t entries = u16(ifd);
  for (uint32_t e = 0; e < entries; ++e) {
    size_t at = ifd + 2 + size_t{e} * 12;
    if (at + 12 > b.size()) return false;
    uint32_t tag = u16(at), type = u16(at + 2);
    uint32_t value = type == 3 ? u16(at + 8) : type == 4 ? u32(at + 8) : 0;
    if (tag == 256) h.width = value;
    if (tag == 257) h.height = value;
  }
  return true;
}

}  // namespace

std::optional<std::string> ImageHeader::media_type_of(std::string_view head) {
  using namespace std::string_view_literals;
  if (head.starts_with("\x89PNG\r\n\x1a\n"sv)) return "image/png";
  if (head.starts_with("\xff\xd8\xff"sv)) return "image/jpeg";
  if (head.starts_with("GIF87a"sv) || head.starts_with("GIF89a"sv)) return "image/gif";
  if (head.starts_with("RIFF"sv) && head.size() >= 12 && head.substr(8, 4) == "WEBP"sv) {
    return "image/webp";
  }
  if (head.starts_with("BM"sv) && head.size() >= 14) return "image/bmp";
  if (head.starts_with("II*\0"sv) || head.starts_with("MM\0*"sv)) return "image/tiff";
  return std::nullopt;
}

std::optional<ImageHeader> ImageHeader::parse(std::string_view bytes) {
  auto type = media_type_of(bytes);
  if (!type) return std::nullopt;
  ImageHeader h;
  h.media_type = *type;
  bool ok = false;
  if (h.media_type == "image/png") ok = png(bytes, h);
  if (h.media_type == "image/jpeg") ok = jpeg(bytes, h);
  if (h.media_type == "image/gif") ok = gif(bytes, h);
  if (h.media_type == "image/webp") ok = webp(bytes, h);
  if (h.media_type == "image/bmp") ok = bmp(bytes, h);
  if (h.media_type == "image/tiff") ok = tiff(bytes, h);
  if (!ok || h.width == 0 || h.height == 0) return std::nullopt;
  return h;
}

}  // namespace winnow
