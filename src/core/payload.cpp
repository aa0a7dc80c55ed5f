#include "core/payload.h"

#include <algorithm>

namespace winnow {

Payload Payload::of_bytes(std::string bytes, std::string media_type) {
  Payload p;
  p.size = bytes.size();
  p.buffer = std::make_shared<const std::string>(std::move(bytes));
  p.media_type = std::move(media_type);
  return p;
}

Payload Payload::of_file(std::string path, std::string media_type) {
  Payload p;
  p.path = std::move(path);
  p.media_type = std::move(media_type);
  return p;
}

std::string_view Payload::bytes() const {
  if (!buffer) return {};
  return std::string_view(*buffer).substr(offset, size);
}

std::string_view Payload::member_bytes(const PayloadMember& member) const {
  if (!buffer) return {};
  return std::string_view(*buffer).substr(member.offset, member.size);
}

Payload Payload::slice(uint64_t offset_in_item, uint64_t length) const {
  Payload p = *this;
  uint64_t begin = std::min(offset_in_item, size);
  p.offset = offset + begin;
  p.size = std::min(length, size - begin);
  return p;
}

}  // namespace winnow
