#pragma once
// A kept clip's metadata file (metas/<clip id>.json, the anchor's layout): where it comes from
// (source_video, span_s), what it is (frames, fps, width, height) and what the stages scored
// (every numeric field a stage added, by its name, under "scores"), plus its captions (the
// caption stage's windows; without one an empty list, so readers of the anchor's schema find it).
#include <string>

#include "core/doc_batch.h"

namespace winnow {

std::string clip_meta_json(const DocBatch& batch, size_t row);

}  // namespace winnow
