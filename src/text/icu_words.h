#pragma once
// Dictionary-based word segmentation with ICU's word BreakIterator, for text written without
// spaces (Chinese, Japanese, Thai...). NeMo Curator splits Chinese with jieba and Japanese with
// MeCab, neither of which is available here; ICU's CJK dictionary gives comparable words.
// Segments of white space are left out; punctuation segments are kept as words (as jieba and
// MeCab's wakati output keep them).
#include <string_view>
#include <vector>

#include "text/doc_segments.h"

namespace winnow {

void icu_word_split(std::string_view text, std::vector<TextPiece>& out);

}  // namespace winnow
