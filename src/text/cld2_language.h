#pragma once
// Language identification with CLD2 (Compact Language Detector 2), whose tables are built into
// libcld2: it needs no model file, so it is the default backend of language ID and the language
// guess behind jusText's choice of stop-word list.
#include <string>
#include <string_view>

namespace winnow {

struct LanguageGuess {
  std::string code;       // ISO 639-1 where one exists ("en", "de", "zh"); "un" when unknown
  float score = 0.0f;     // share of the scored text in the top language, 0..1
  bool reliable = false;  // CLD2's own reliability flag
};

// Thread-safe; never throws. Invalid UTF-8 is scored only up to its first invalid byte.
// `is_plain_text = false` lets CLD2 skip HTML tags and entities itself.
LanguageGuess detect_language_cld2(std::string_view utf8_text, bool is_plain_text = true);

}  // namespace winnow
