#pragma once
// word_tokenize: an approximation of NLTK's English word_tokenize (Treebank rules), which
// datatrove's Gopher, FineWeb and C4 filters count words with. NLTK is a Python library and not
// available here, so its main rules are reproduced:
//   - text splits on whitespace; then ? ! ; @ # $ % & ( ) [ ] { } < > " “ ” « » are tokens of
//     their own, as are "..." and "--";
//   - , and : split off unless a digit follows ("1,000" and "10:30" stay whole);
//   - a word's final "." splits off unless the word holds another "." (abbreviations such as
//     "U.S." or "e.g." stay whole; NLTK's Punkt model knows more abbreviations than that);
//   - a trailing ' splits off, and the contractions n't 's 'm 'd 're 've 'll split from their
//     word ("don't" → "do" "n't").
// NLTK rewrites quotes as `` and ''; tokens here are always pieces of the text, so a quote
// token is one code point long. Documents these differences move across a threshold are rare.
#include <string_view>
#include <vector>

#include "text/doc_segments.h"

namespace winnow {

void word_tokenize(std::string_view text, std::vector<TextPiece>& out);

}  // namespace winnow
