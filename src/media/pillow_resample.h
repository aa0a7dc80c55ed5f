#pragma once
// Image resizing that gives the same bytes as Pillow's Image.resize with the BILINEAR or
// BICUBIC filter (Pillow 9–11's Resample.c), so a model's input is what the Hugging Face image
// processors feed it: they resize through Pillow. OpenCV's INTER_CUBIC and INTER_LINEAR do not
// widen the filter when shrinking (no antialiasing), so their pixels differ from Pillow's by
// tens of levels on a downscaled photograph.
//
// The algorithm, as Pillow does it: per output pixel, filter weights over the input pixels
// within the filter's support widened by the scale (antialiasing when shrinking), normalised to
// sum 1, then turned into 22-bit fixed point; a horizontal pass into 8-bit rows, then a
// vertical pass, each rounding and clamping to 0..255. A pass whose size does not change is
// skipped.
#include <cstdint>
#include <vector>

namespace winnow {

enum class ResampleFilter { kBilinear, kBicubic };

// Resizes `in` (width × height pixels of `channels` interleaved 8-bit samples, rows packed) to
// out_width × out_height into `out` (resized to fit).
void resize_like_pillow(const uint8_t* in, int width, int height, int channels, int out_width,
                        int out_height, ResampleFilter filter, std::vector<uint8_t>& out);

}  // namespace winnow
