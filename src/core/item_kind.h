#pragma once
// ItemKind: what one row of a DocBatch is. Documents carry text (and their raw JSON record);
// images, videos, clips and audio carry a binary payload or a file reference (core/payload.h) beside
// typed metadata columns. A stage declares the kinds it takes and the kind it gives, and a
// pipeline that connects a stage to a kind it cannot take is refused when it is loaded.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace winnow {

enum class ItemKind : uint8_t { kDocument = 0, kImage = 1, kVideo = 2, kClip = 3, kAudio = 4 };
inline constexpr int kItemKindCount = 5;

std::string_view item_kind_name(ItemKind kind);  // "document", "image", "video", "clip", "audio"
std::string item_kind_plural(ItemKind kind);     // "documents", ... (for messages)
std::optional<ItemKind> item_kind_from_name(std::string_view name);

// A set of kinds (what a stage takes).
class ItemKinds {
 public:
  constexpr ItemKinds() = default;
  constexpr ItemKinds(ItemKind kind) : mask_(bit(kind)) {}  // NOLINT: a set of one
  static constexpr ItemKinds any() {
    ItemKinds all;
    all.mask_ = (1u << kItemKindCount) - 1;
    return all;
  }
  constexpr ItemKinds operator|(ItemKinds other) const {
    ItemKinds both;
    both.mask_ = mask_ | other.mask_;
    return both;
  }
  constexpr bool has(ItemKind kind) const { return (mask_ & bit(kind)) != 0; }
  constexpr bool is_any() const { return mask_ == any().mask_; }
  std::string names() const;  // "documents", "images or videos", "any item"

 private:
  static constexpr uint8_t bit(ItemKind kind) { return uint8_t(1u << static_cast<int>(kind)); }
  uint8_t mask_ = 0;
};

}  // namespace winnow
