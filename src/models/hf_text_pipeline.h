#pragma once
// HfTextPipeline: the steps of a Hugging Face tokenizer.json around its model, as HF runs them:
// the normalizer (NFC/NFD/NFKC/NFKD, Replace, Prepend, Lowercase, Strip, StripAccents, Nmt,
// BertNormalizer, ByteLevel, Precompiled, Sequence) on each stretch of text between added
// tokens, then the pre-tokenizer (Split by string or regex with each split behaviour and invert,
// ByteLevel, Metaspace, Whitespace, WhitespaceSplit, Digits, Punctuation, BertPreTokenizer,
// CharDelimiterSplit, UnicodeScripts, FixedLength, Sequence) cutting it into the words the model
// tokenises one at a time. Character classes and Unicode versions follow HF's (hf_char_classes.h).
//
// Split patterns are Oniguruma regexes in HF (Rust's onig crate); here they run in ICU's regex
// engine, which has what the GPT-2, llama3 and qwen2/3 patterns need (lookahead, \p{L}, \p{N},
// (?i:...)). The one difference that matters is rewritten: Oniguruma's \s is Unicode White_Space
// (with U+000B and U+0085), ICU's is [\t\n\f\r\p{Z}], so \s and \S become \p{White_Space} and
// \P{White_Space}.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace simdjson::dom {
class element;
}

namespace winnow {

// Where a text stands against the start of the input, as HF's offsets into the original tell
// it: Metaspace's prepend_scheme "first" adds its ▁ only to a word at offset 0.
struct TextStart {
  // The text's first character is (or stands for) the input's first one; false once a
  // normalizer dropped that character (Strip, Nmt's controls, a Replace that shrinks it...).
  bool at_input = true;
  // Bytes a normalizer put before that character (Prepend's prefix, BertNormalizer's space
  // before a CJK ideograph): HF maps them to offset 0 too, so a word starting within them, or
  // right after them, is still at the start.
  size_t inserted = 0;

  // The start of the part of this text from byte `offset` on.
  TextStart from(size_t offset) const {
    return at_input && offset <= inserted ? TextStart{true, inserted - offset}
                                          : TextStart{false, 0};
  }
};

class HfTextPipeline {
 public:
  HfTextPipeline();
  ~HfTextPipeline();
  HfTextPipeline(HfTextPipeline&&) noexcept;
  HfTextPipeline& operator=(HfTextPipeline&&) noexcept;

  // From tokenizer.json's "normalizer" and "pre_tokenizer" (nullptr, or a JSON null: none). An
  // unsupported step is an error that names it.
  Status parse(const simdjson::dom::element* normalizer,
               const simdjson::dom::element* pre_tokenizer);

  // Normalises `text` in place, updating where it starts (in: the raw text's; a text that does
  // not begin the input has at_input false).
  void normalize(std::string& text, TextStart& start) const;
  // Appends the words of `text` (normalised already) to `words`.
  void pre_tokenize(std::string_view text, TextStart start, std::vector<std::string>& words) const;

  struct Step;

 private:
  std::vector<std::unique_ptr<Step>> normalizers_;
  std::vector<std::unique_ptr<Step>> pre_tokenizers_;
};

}  // namespace winnow
