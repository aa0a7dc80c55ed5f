#pragma once
// DecodedImages: each image of a batch decoded once, on the first request, and shared by every
// later stage that needs pixels (the batch's derived-data slot, core/doc_batch.h: a batch
// visits its stages one at a time). An entry remembers the payload it was decoded from, so a
// row whose bytes changed is decoded again.
#include <string>

#include "core/doc_batch.h"
#include "media/image_pixels.h"

namespace winnow {

// The working image of row `row`, null when it has no in-memory payload or cannot be decoded
// (then `error`, when given, says why). Valid until the batch's rows change.
const ImagePixels* decoded_image(DocBatch& batch, size_t row, std::string* error = nullptr);

// For a batch that cannot be changed (a global step's identify pass): the cached image when an
// earlier stage decoded it, else decoded into `scratch`.
const ImagePixels* decoded_image(const DocBatch& batch, size_t row, ImagePixels& scratch);

}  // namespace winnow
