#pragma once
// LanguageCharset: the characters a language is written with, for NeMo's HistogramFilter. NeMo
// downloads per-language character histograms (built from fairseq's M2M-100 data), which are
// not available offline; this set is built from CLDR's exemplar characters as ICU ships them
// (the standard, auxiliary, index and punctuation sets, with case variants), plus the ASCII
// digits, ASCII punctuation and white space that text in every language carries. The sets differ
// in their long tail (a histogram also holds frequent foreign letters and symbols), so scores
// differ slightly from NeMo's; the decisions agree for text in or clearly out of the language.
#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"

namespace winnow {

class LanguageCharset {
 public:
  // `language`: a BCP 47 / ISO 639 code ("en", "de", "zh", "pt_BR"). Fails when ICU has no
  // exemplar data for it.
  static Result<std::shared_ptr<const LanguageCharset>> for_language(const std::string& language);
  ~LanguageCharset();

  bool contains(uint32_t code_point) const;
  // Code points of `text` in the set, and all code points.
  void count(std::string_view text, size_t& in_set, size_t& total) const;

 private:
  LanguageCharset();
  struct Impl;
  std::unique_ptr<Impl> impl_;
  bool ascii_[128] = {};
};

}  // namespace winnow
