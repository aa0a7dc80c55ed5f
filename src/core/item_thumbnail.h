#pragma once
// How report.html gets a small JPEG of an item: the media layer (which holds the image decoders
// and the JPEG encoder) installs a function here when the built-in stages are registered, and
// the pipeline's writer calls it for the few items its report sample takes. Core and pipeline
// cannot link OpenCV, hence a hook rather than a call.
#include <cstddef>
#include <string>

namespace winnow {

class DocBatch;

// JPEG bytes of row `row` of `batch`, longer side at most 128 px; empty when the row has no
// picture (a document, a file reference not read, undecodable bytes).
using ItemThumbnailer = std::string (*)(const DocBatch& batch, size_t row);

void set_item_thumbnailer(ItemThumbnailer thumbnailer);
ItemThumbnailer item_thumbnailer();  // null until one is set

}  // namespace winnow
