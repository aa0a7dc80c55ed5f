#pragma once
// The words n-gram decontamination compares (NeMo Curator's get_words, as its
// TaskDecontamination and DownstreamTask use it): the text lower-cased, ASCII punctuation
// (Python's string.punctuation) removed, split at white space; a token left empty (only
// punctuation) is no word. Each word comes as a 64-bit hash of its normalised bytes and the
// byte range of its token in the original text, so a match can be cut out of the text itself.
//
// White space is Python's str.split(): ASCII \t \n \v \f \r, U+001C..U+001F, space and the
// Unicode spaces (NeMo splits at ' ' only, so "end.\nNext" is one word there). Lower case is
// utf8proc's simple mapping, Python's str.lower() without its few multi-character and
// context rules (İ, final sigma).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace winnow {

struct NormalizedWord {
  uint64_t hash = 0;  // of the normalised word's UTF-8 bytes
  size_t begin = 0;   // the token's bytes in the text, punctuation included
  size_t end = 0;
};

// Appends the words of `text` to `out` (cleared first).
void normalized_words(std::string_view text, std::vector<NormalizedWord>& out);

// The hash of the normalised form of one token (no white space inside); `empty` says it
// normalises to nothing (then the hash is 0 and it is no word).
uint64_t normalized_token_hash(std::string_view token, bool& empty);

// The byte length of the white-space character starting at `text[i]`, 0 when it is not one.
size_t white_space_length(std::string_view text, size_t i);

}  // namespace winnow
