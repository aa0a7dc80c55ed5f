#pragma once
// Motion between two frames by block matching: each block of `from` is looked for in `to`
// within `range` pixels (every offset, the sum of absolute differences of grey levels; ties go
// to the shorter move, so flat areas stay still). The fallback motion measure for codecs
// whose decoder exports no motion vectors. (OpenCV's optical flow lives in its video module,
// which loads libprotobuf; winnow also links SentencePiece, which carries its own protobuf, and
// the two crash together at load time.)
#include <cstdint>
#include <functional>

namespace winnow {

struct BlockMatchOptions {
  int block = 8;   // square blocks of this side
  int range = 16;  // farthest offset searched, in pixels, each way
  // A block whose best match still differs by more than this mean grey level per pixel has no
  // match within range: it is reported unmatched (as an encoder would code it intra).
  double unmatched_difference = 24;
};

// Calls `on_block(x, y, w, h, length)` for each block of the grey frames (width x height, rows
// packed), `length` the distance it moved in pixels, or a negative number when unmatched.
void match_blocks(const uint8_t* from, const uint8_t* to, int width, int height,
                  const BlockMatchOptions& options,
                  const std::function<void(int x, int y, int w, int h, double length)>& on_block);

}  // namespace winnow
