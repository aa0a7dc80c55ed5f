#pragma once
// Word and character error rates of a transcript against a reference, as NeMo Curator's
// ComputeWERStage measures them: both texts cleaned by its rules (clean_transcript), then
// NeMo's word_error_rate_detail: the Levenshtein distance over words (split at white space) or
// over characters (code points, spaces included), divided by the reference's length.
// Not done: NeMo's WFST text normaliser (nemo_text_processing: numbers, dates, units written
// out as words) that ComputeWERStage runs before cleaning; digits stay digits here.
#include <cstdint>
#include <string>
#include <string_view>

namespace winnow {

// NeMo's cleaning without punctuation (clean_text, retain_pncs=False), after the replacements
// its normalize_text makes first: "<unk>", "|", "⁇", "<" and ">" removed and white space runs
// made one space; then lower case, the quote marks, backticks and hyphens removed, the other
// punctuation and symbols NeMo lists made spaces, white space runs made one space, stripped.
std::u32string clean_transcript(std::string_view text);

struct ErrorRate {
  int64_t errors = 0;  // substitutions + insertions + deletions
  int64_t tokens = 0;  // in the reference
  double rate() const { return tokens > 0 ? double(errors) / double(tokens) : 0.0; }
};

ErrorRate word_errors(std::u32string_view hypothesis, std::u32string_view reference);
ErrorRate char_errors(std::u32string_view hypothesis, std::u32string_view reference);

}  // namespace winnow
