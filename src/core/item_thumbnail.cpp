#include "core/item_thumbnail.h"

#include <atomic>

namespace winnow {

namespace {
std::atomic<ItemThumbnailer> installed{nullptr};
}  // namespace

void set_item_thumbnailer(ItemThumbnailer thumbnailer) { installed.store(thumbnailer); }

ItemThumbnailer item_thumbnailer() { return installed.load(); }

}  // namespace winnow
