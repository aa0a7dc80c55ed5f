#pragma once
// Small JPEG thumbnails of items for report.html: an image (or a video's contact sheet) reduced
// so its longer side is at most `max_side`, encoded by libjpeg through OpenCV's imgcodecs (in
// libwinnow_image_codecs.so, like every other image decode).
#include <cstdint>
#include <string>
#include <string_view>

#include "media/image_pixels.h"

namespace winnow {

inline constexpr int kThumbnailSide = 128;
inline constexpr int kThumbnailQuality = 75;

// JPEG bytes of `pixels` reduced to at most `max_side` (area averaging); empty when it fails.
std::string thumbnail_jpeg(const ImagePixels& pixels, int max_side = kThumbnailSide,
                           int quality = kThumbnailQuality);

// The same from encoded image bytes (any format the decoders read); empty when undecodable.
std::string thumbnail_jpeg(std::string_view encoded, int max_side = kThumbnailSide,
                           int quality = kThumbnailQuality);

class DocBatch;

// The thumbnail of row `row` of `batch` when it is an image whose bytes are in memory or in a
// file it names (read only for the few items a report samples): the function the media layer
// installs as core/item_thumbnail.h's hook; a clip's or video's contact sheet
// (media/clip_thumbnail.h). Empty for any other row.
std::string item_thumbnail(const DocBatch& batch, size_t row);

}  // namespace winnow
