#pragma once
// Splitting a long text into pieces of bounded length, as users do before embedding long
// documents: at paragraph boundaries (a blank line) first; a paragraph longer than the limit at
// sentence boundaries (ICU's sentence break rules, any language); a sentence longer than that
// at word boundaries (white space, Unicode's included); a single word longer than a character
// limit at code point boundaries. Consecutive paragraphs (or sentences, or words) are packed
// into one piece while it stays within the limit (the recursive splitting LangChain's
// RecursiveCharacterTextSplitter and NeMo's document splitter users know).
//
// The pieces are views into the text and tile it: in order, concatenated, they are the text,
// each boundary falling after the white space that ends a paragraph, sentence or word. A
// caller that wants clean pieces strips them (ChunkLimits::strip).
#include <cstdint>
#include <string_view>
#include <vector>

namespace winnow {

struct ChunkLimits {
  uint64_t max_chars = 0;  // code points per piece; 0: no limit
  uint64_t max_words = 0;  // white-space separated words per piece; 0: no limit
  // Strip each piece's leading and trailing white space and leave out pieces that are only
  // white space: the pieces no longer tile the text.
  bool strip = false;
};

// Fills `pieces` (cleared first). A text within the limits is one piece; an empty text none.
void chunk_text(std::string_view text, const ChunkLimits& limits,
                std::vector<std::string_view>& pieces);

}  // namespace winnow
