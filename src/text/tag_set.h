#pragma once
// TagSet: a fixed set of HTML tag names for the extractors, which test every element of every
// page against several such lists. Each name (at most 16 bytes) is packed into two 64-bit
// words, zero-padded; the packed keys are sorted at compile time and a lookup is a binary
// search over integer pairs, with no string comparison calls.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>

namespace winnow {

namespace tag_set_detail {

using Key = std::pair<uint64_t, uint64_t>;

// Tag names hold no NUL bytes, so the zero padding also encodes the length.
constexpr Key pack(std::string_view name) {
  uint64_t words[2] = {0, 0};
  for (size_t i = 0; i < name.size(); ++i) {
    words[i / 8] |= uint64_t{static_cast<unsigned char>(name[i])} << (8 * (i % 8));
  }
  return {words[0], words[1]};
}

}  // namespace tag_set_detail

template <size_t N>
class TagSet {
 public:
  static constexpr size_t kMaxLength = 16;

  template <typename... Names>
  consteval explicit TagSet(Names... names) : keys_{tag_set_detail::pack(names)...} {
    for (std::string_view name : {std::string_view(names)...}) {
      if (name.empty() || name.size() > kMaxLength) throw "TagSet: names are 1 to 16 bytes";
    }
    std::sort(keys_.begin(), keys_.end());
  }

  constexpr bool contains(std::string_view tag) const {
    if (tag.empty() || tag.size() > kMaxLength) return false;
    return std::binary_search(keys_.begin(), keys_.end(), tag_set_detail::pack(tag));
  }

 private:
  std::array<tag_set_detail::Key, N> keys_;
};

template <typename... Names>
TagSet(Names...) -> TagSet<sizeof...(Names)>;

}  // namespace winnow
