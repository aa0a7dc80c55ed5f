#pragma once
#include <cstdint>

namespace winnow {

// A piece of a text (a word, line, paragraph or token): byte offset and size, and its length
// in code points, as Python's len() counts them.
struct TextPiece {
  uint32_t begin = 0;
  uint32_t bytes = 0;
  uint32_t chars = 0;
};

}  // namespace winnow
