#pragma once
// Text normalisation before dedup hashing.
//  - normalize_for_word_shingles: datatrove's simplify_text (FineWeb MinHash): lower case,
//    diacritics stripped (NFD, marks removed), punctuation removed, every decimal digit made
//    "0", whitespace collapsed to single spaces and trimmed.
//  - lower_and_collapse_whitespace: the optional normalisation of exact dedup: lower case and
//    runs of whitespace made one space, trimmed.
// Both expect valid UTF-8 (the reader guarantees it) and write into `out` (cleared first).
#include <string>
#include <string_view>

namespace winnow {

void normalize_for_word_shingles(std::string_view text, std::string& out);
void lower_and_collapse_whitespace(std::string_view text, std::string& out);

}  // namespace winnow
