#pragma once
// A clip's or video's picture for report.html: its contact sheet. A clip transcode_clips made
// carries one (the preview member of its payload), reduced here; any other clip or video (one a
// filter dropped before it was encoded) gets a sheet of a few frames decoded from its source
// file over its span, side by side. Only for the few items a report samples: a decode each.
#include <cstddef>
#include <string>

#include "core/doc_batch.h"

namespace winnow {

inline constexpr int kSheetTiles = 4;        // frames sampled for a sheet
inline constexpr int kSheetTileWidth = 120;  // pixels, each
inline constexpr int kSheetSide = 480;       // longer side of the JPEG the report embeds

// JPEG bytes of the sheet of row `row` (a clip or a video); empty when it has none.
std::string clip_thumbnail(const DocBatch& batch, size_t row);

}  // namespace winnow
