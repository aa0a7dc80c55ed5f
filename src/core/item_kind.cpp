#include "core/item_kind.h"

namespace winnow {

std::string_view item_kind_name(ItemKind kind) {
  switch (kind) {
    case ItemKind::kDocument:
      return "document";
    case ItemKind::kImage:
      return "image";
    case ItemKind::kVideo:
      return "video";
    case ItemKind::kClip:
      return "clip";
    case ItemKind::kAudio:
      return "audio";
  }
  return "item";
}

// "audio" is its own plural (an audio item, two audio items).
std::string item_kind_plural(ItemKind kind) {
  if (kind == ItemKind::kAudio) return "audio items";
  return std::string(item_kind_name(kind)) + "s";
}

std::optional<ItemKind> item_kind_from_name(std::string_view name) {
  for (int k = 0; k < kItemKindCount; ++k) {
    ItemKind kind = static_cast<ItemKind>(k);
    if (name == item_kind_name(kind) || name == item_kind_plural(kind)) return kind;
  }
  return std::nullopt;
}

std::string ItemKinds::names() const {
  if (is_any()) return "any item";
  std::string out;
  for (int k = 0; k < kItemKindCount; ++k) {
    ItemKind kind = static_cast<ItemKind>(k);
    if (!has(kind)) continue;
    if (!out.empty()) out += " or ";
    out += item_kind_plural(kind);
  }
  return out.empty() ? "nothing" : out;
}

}  // namespace winnow
