#pragma once
// WordPieceTokenizer: the tokenizer of BERT-family models (BERT, MiniLM, e5, bge...), read from a
// Hugging Face tokenizer.json, giving the ids Hugging Face's tokenizers library gives for
// `encode(text)` with special tokens (tested token for token against it, under node).
//
// The pipeline, as HF runs it:
//  1. added tokens that are not normalised ([CLS], [SEP], [MASK]...) are matched in the raw text
//     first (leftmost, longest; lstrip, rstrip and single_word as HF has them: added_tokens.h)
//     and become their own ids;
//  2. BertNormalizer: clean_text (drop NUL, U+FFFD and control, format, surrogate and
//     private-use code points; any whitespace becomes a space), handle_chinese_chars (spaces around
//     CJK ideographs), strip_accents (NFD, then drop nonspacing marks; by default when
//     lowercasing), lowercase (per code point); then the normalised added tokens are matched in
//     the normalised text;
//  3. BertPreTokenizer: split on whitespace, and each punctuation character is a word of its own;
//  4. WordPiece: greedy longest match from the left, continuation pieces prefixed ("##"); a word
//     with a piece not in the vocabulary, or longer than max_input_chars_per_word, is [UNK];
//  5. the post-processor's special tokens around the sequence ([CLS] ... [SEP]), after truncating
//     the sequence so the whole fits max_length.
// Unicode properties come from utf8proc and ICU (Unicode 15), limited to what HF's older tables
// have (hf_char_classes.h), so every code point is classed as HF classes it (tested).
//
// Thread-safe: encode() only reads.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/status.h"
#include "models/added_tokens.h"
#include "models/hf_char_classes.h"
#include "models/text_tokenizer.h"

namespace winnow {

class WordPieceTokenizer final : public TextTokenizer {
 public:
  // Loads a tokenizer.json whose model is WordPiece (errors name the path and what is wrong);
  // one shared copy per file.
  static Result<std::shared_ptr<const WordPieceTokenizer>> load(const std::string& path);
  // From the JSON text itself (`origin` names it in errors).
  static Result<std::shared_ptr<WordPieceTokenizer>> parse(std::string_view json,
                                                           const std::string& origin);

  // Appends the ids of `text` to `ids`: special tokens included, truncated to `max_length`
  // tokens in all (0: the tokenizer.json's own truncation, if any).
  void encode(std::string_view text, std::vector<int64_t>& ids,
              size_t max_length = 0) const override;

  // Tokens of `text` as encode() gives them but never truncated (what a token count filter
  // counts: HF's encode without truncation, special tokens included).
  size_t count(std::string_view text) const override;
  void encode_without_specials(std::string_view text, std::vector<int64_t>& ids) const override;

  // The truncation length tokenizer.json sets (0: none).
  size_t max_length() const override { return max_length_; }
  int64_t pad_id() const override { return pad_id_; }
  size_t vocabulary_size() const override { return vocabulary_.size(); }

 private:
  // Hash and equality that take string_view, so lookups of pieces need no std::string.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  void encode_word(std::u32string_view word, std::vector<int64_t>& ids) const;
  void encode_normalized_span(std::string_view text, std::vector<int64_t>& ids) const;
  // BertPreTokenizer and WordPiece on normalised text.
  void encode_words(std::u32string_view normalized, std::vector<int64_t>& ids) const;

  std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> vocabulary_;
  AddedTokens raw_added_;          // matched in the raw text
  AddedTokens normalized_added_;   // matched in the normalised text
  std::vector<int64_t> prefix_;    // special tokens before the sequence ([CLS])
  std::vector<int64_t> suffix_;    // and after it ([SEP])
  std::string continuing_prefix_ = "##";
  int64_t unk_id_ = -1;
  int64_t pad_id_ = 0;
  size_t max_input_chars_per_word_ = 100;
  size_t max_length_ = 0;
  // No BertNormalizer in the file: none of its steps.
  hf_chars::BertNormalizerOptions normalizer_{false, false, false, false};
};

}  // namespace winnow
