#pragma once
// TextTokenizer: the one interface every Hugging Face-style tokenizer sits behind (WordPiece,
// byte-level and byte-fallback BPE, Unigram, a SentencePiece spm.model), so the embed and
// classify stages and the token_count / tokenizer_fertility filters take any of them.
//
// encode() gives the ids of HF's `encode(text)` with special tokens (add_special_tokens=True),
// truncated so the whole fits `max_length`; count() is the length of that encoding untruncated.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace winnow {

class TextTokenizer {
 public:
  virtual ~TextTokenizer() = default;

  // Appends the ids of `text` to `ids`: special tokens included, truncated to `max_length`
  // tokens in all (0: the tokenizer's own truncation, if any).
  virtual void encode(std::string_view text, std::vector<int64_t>& ids,
                      size_t max_length = 0) const = 0;
  // Appends the ids of `text` without the post-processor's special tokens (HF's encode(text,
  // add_special_tokens=False)): added tokens written in the text are still found. Never truncated.
  virtual void encode_without_specials(std::string_view text, std::vector<int64_t>& ids) const = 0;
  // Tokens of `text` as encode() gives them, never truncated (what a token count filter counts).
  virtual size_t count(std::string_view text) const;
  // The truncation length the tokenizer sets itself (0: none).
  virtual size_t max_length() const = 0;
  virtual int64_t pad_id() const = 0;
  virtual size_t vocabulary_size() const = 0;
};

// HF's post-processor with truncation: appends `prefix`, the ids `encode_sequence(ids)` appends,
// cut so that the whole fits `max_length` tokens (0: no cut), then `suffix`.
template <class EncodeSequence>
void encode_between_specials(std::vector<int64_t>& ids, const std::vector<int64_t>& prefix,
                             const std::vector<int64_t>& suffix, size_t max_length,
                             EncodeSequence&& encode_sequence) {
  ids.insert(ids.end(), prefix.begin(), prefix.end());
  const size_t sequence_start = ids.size();
  encode_sequence(ids);
  if (max_length > 0) {
    const size_t specials = prefix.size() + suffix.size();
    const size_t room = max_length > specials ? max_length - specials : 0;
    if (ids.size() - sequence_start > room) ids.resize(sequence_start + room);
  }
  ids.insert(ids.end(), suffix.begin(), suffix.end());
}

// Loads the tokenizer at `path`: a tokenizer.json (its model's type picks the implementation), or
// a model folder holding tokenizer.json, else spm.model / tokenizer.model (SentencePiece, with
// the special tokens tokenizer_config.json names). One shared copy per file. Errors name the
// file and what is wrong.
Result<std::shared_ptr<const TextTokenizer>> load_text_tokenizer(const std::string& path);

}  // namespace winnow
