#pragma once
// Word and character error rates of a transcript against a reference, as NeMo Curator's
// ComputeWERStage measures them: both texts cleaned by its rules (clean_transcript), then
// NeMo's word_error_rate_detail: the Levenshtein distance over words (split at white space) or
// over characters (code points, spaces included), divided by the reference's length.
// ComputeWERStage runs NeMo's text normaliser (nemo_text_processing) before the cleaning:
// clean_spoken_transcript does that with spoken_english.h, which reads the numbers, money,
// percentages, ordinals, years, times, telephone numbers, dates and common abbreviations
// (not units, fractions, ...; see there).
#include <cstdint>
#include <string>
#include <string_view>

namespace winnow {

// NeMo's cleaning without punctuation (clean_text, retain_pncs=False), after the replacements
// its normalize_text makes first: "<unk>", "|", "⁇", "<" and ">" removed and white space runs
// made one space; then lower case, the quote marks, backticks and hyphens removed, the other
// punctuation and symbols NeMo lists made spaces, white space runs made one space, stripped.
std::u32string clean_transcript(std::string_view text);

// NeMo's normalize_text then the cleaning above: the same removals and white space made one
// space, then the text made spoken (spoken_english: "3 cats" → "three cats"), then cleaned.
// NeMo normalises a text of more than 200 words in chunks of 200 (a few words back when a
// chunk would end before a number); here the text is read whole, which differs only for a
// number and a word it reads together ("5 pm") split by NeMo's chunk border.
std::u32string clean_spoken_transcript(std::string_view text);

struct ErrorRate {
  int64_t errors = 0;  // substitutions + insertions + deletions
  int64_t tokens = 0;  // in the reference
  double rate() const { return tokens > 0 ? double(errors) / double(tokens) : 0.0; }
};

ErrorRate word_errors(std::u32string_view hypothesis, std::u32string_view reference);
ErrorRate char_errors(std::u32string_view hypothesis, std::u32string_view reference);

}  // namespace winnow
