#pragma once
// The models of a Hugging Face tokenizer.json that turn one pre-tokenised word into ids:
//
// - BPE (GPT-2, RoBERTa, llama3, qwen2/3: byte-level; gemma3, llama2, mistral: SentencePiece-style
//   with byte_fallback): the word's characters (each an id; with byte_fallback an unknown
//   character becomes its UTF-8 bytes <0xXX>, else unk, consecutive unks fused when fuse_unk),
//   then merges applied lowest rank first, leftmost first among equal ranks (HF's heap order),
//   with the merge table a hash map keyed by the id pair. ignore_merges (llama3): a word that is
//   itself in the vocabulary is that one id. Words under 256 bytes are cached per thread, as HF
//   caches them.
// - Unigram (T5, ALBERT, DeBERTa-v3, XLM-R...): Viterbi over the pieces' log-probabilities, an
//   unknown character scoring the lowest piece score minus 10, consecutive unknowns fused into one
//   unk; byte_fallback spells an unknown stretch as <0xXX> bytes.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace simdjson::dom {
class element;
}

namespace winnow {

class SubwordModel {
 public:
  virtual ~SubwordModel() = default;
  // Appends the ids of one word (non-empty) to `ids`.
  virtual void tokenize(std::string_view word, std::vector<int64_t>& ids) const = 0;
  virtual bool id_of(std::string_view token, int64_t& id) const = 0;
  virtual size_t vocabulary_size() const = 0;
};

// From tokenizer.json's "model" object; errors say what is wrong.
Result<std::unique_ptr<SubwordModel>> parse_bpe_model(const simdjson::dom::element& model);
Result<std::unique_ptr<SubwordModel>> parse_unigram_model(const simdjson::dom::element& model);

}  // namespace winnow
