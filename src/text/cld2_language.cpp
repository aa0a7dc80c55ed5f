#include "text/cld2_language.h"

#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>

#include <algorithm>
#include <climits>
#include <cstdio>  // CLD2's header uses FILE without including it

namespace winnow {

LanguageGuess detect_language_cld2(std::string_view utf8_text, bool is_plain_text) {
  // CLD2 takes an int length; a prefix of 2 GiB says as much about the language as the whole.
  const int length = static_cast<int>(std::min<size_t>(utf8_text.size(), INT_MAX));
  CLD2::CLDHints hints = {nullptr, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
  CLD2::Language language3[3];
  int percent3[3] = {0, 0, 0};
  double normalized_score3[3];
  int text_bytes = 0;
  bool reliable = false;
  int valid_prefix_bytes = 0;
  CLD2::Language top = CLD2::ExtDetectLanguageSummaryCheckUTF8(
      utf8_text.data(), length, is_plain_text, &hints, 0, language3, percent3, normalized_score3,
      nullptr, &text_bytes, &reliable, &valid_prefix_bytes);
  if (valid_prefix_bytes < length && valid_prefix_bytes > 0) {
    // Score the valid prefix rather than giving up on the whole text.
    top = CLD2::ExtDetectLanguageSummary(utf8_text.data(), valid_prefix_bytes, is_plain_text,
                                         &hints, 0, language3, percent3, normalized_score3, nullptr,
                                         &text_bytes, &reliable);
  }
  LanguageGuess guess;
  guess.code = CLD2::LanguageCode(top);
  guess.score = top == CLD2::UNKNOWN_LANGUAGE ? 0.0f : static_cast<float>(percent3[0]) / 100.0f;
  guess.reliable = reliable;
  return guess;
}

}  // namespace winnow
