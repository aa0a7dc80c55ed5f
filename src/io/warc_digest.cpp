#include "io/warc_digest.h"

#include "core/ascii.h"
#include "io/header_field.h"

namespace winnow {

namespace {

constexpr std::string_view kBase32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

int base32_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= '2' && c <= '7') return c - '2' + 26;
  return -1;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<WarcDigest> WarcDigest::parse(std::string_view value) {
  value = trim_field(value);
  size_t colon = value.find(':');
  if (colon == std::string_view::npos || !ascii_iequals(value.substr(0, colon), "sha1")) {
    return std::nullopt;
  }
  std::string_view text = value.substr(colon + 1);
  WarcDigest digest;
  if (text.size() == 32) {  // 160 bits in 32 characters of 5 bits, no padding
    uint64_t bits = 0;
    int have = 0;
    size_t out = 0;
    for (char c : text) {
      int v = base32_value(c);
      if (v < 0) return std::nullopt;
      bits = (bits << 5) | static_cast<uint64_t>(v);
      have += 5;
      if (have >= 8) {
        have -= 8;
        digest.digest_[out++] = static_cast<uint8_t>(bits >> have);
      }
    }
    return digest;
  }
  if (text.size() == 40) {
    for (size_t i = 0; i < 20; ++i) {
      int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
      if (hi < 0 || lo < 0) return std::nullopt;
      digest.digest_[i] = static_cast<uint8_t>(hi << 4 | lo);
    }
    return digest;
  }
  return std::nullopt;
}

std::string base32_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 4) / 5 * 8);
  uint64_t bits = 0;
  int have = 0;
  for (unsigned char c : bytes) {
    bits = (bits << 8) | c;
    have += 8;
    while (have >= 5) {
      have -= 5;
      out.push_back(kBase32[(bits >> have) & 31]);
    }
  }
  if (have > 0) out.push_back(kBase32[(bits << (5 - have)) & 31]);
  while (out.size() % 8 != 0) out.push_back('=');
  return out;
}

std::string warc_digest_text(const Sha1Digest& digest) {
  return "sha1:" +
         base32_encode(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

}  // namespace winnow
