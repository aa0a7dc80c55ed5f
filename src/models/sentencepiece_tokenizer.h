#pragma once
// SentencePieceTokenizer: a SentencePiece model (libsentencepiece, the `.model` file that
// spm_train writes and that many Hugging Face models ship as tokenizer.model: Llama 2, Mistral,
// T5, Gemma…), loaded once and shared by every worker. It encodes a text as the Python binding's
// `encode()` / `encode_as_pieces()` do on the same model (no BOS/EOS unless asked), so counts
// match those of NeMo Curator's TokenizerFertilityFilter and of `spm_encode`.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace sentencepiece {
class SentencePieceProcessor;
}  // namespace sentencepiece

namespace winnow {

class SentencePieceTokenizer {
 public:
  // Loads the model at `path`; a model already loaded from the same file is shared. Errors name
  // the path and say what is wrong (missing, not a file, not a SentencePiece model).
  static Result<std::shared_ptr<const SentencePieceTokenizer>> load(const std::string& path);

  ~SentencePieceTokenizer();
  SentencePieceTokenizer(const SentencePieceTokenizer&) = delete;
  SentencePieceTokenizer& operator=(const SentencePieceTokenizer&) = delete;

  // The number of pieces (= ids) the model encodes `text` into, without BOS or EOS. The text is
  // encoded whole, newlines included, as the Python binding encodes a string. Thread-safe: the
  // processor is only read, scratch is per thread.
  size_t count(std::string_view text) const;
  // The ids themselves (same thread-safety).
  void encode(std::string_view text, std::vector<int>& ids) const;

  // Ids of the special pieces, -1 when the model has none (T5 has no BOS, for instance).
  int bos_id() const { return bos_id_; }
  int eos_id() const { return eos_id_; }
  int vocab_size() const { return vocab_size_; }
  // The id of `piece`, -1 when the model has no such piece.
  int piece_id(std::string_view piece) const;
  const std::string& path() const { return path_; }

 private:
  SentencePieceTokenizer() = default;
  // Reads the file (no sharing: load() shares).
  static Result<std::shared_ptr<SentencePieceTokenizer>> read_file(const std::string& path);

  std::unique_ptr<sentencepiece::SentencePieceProcessor> processor_;
  int bos_id_ = -1, eos_id_ = -1, vocab_size_ = 0;
  std::string path_;
};

}  // namespace winnow
