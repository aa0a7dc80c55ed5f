#pragma once
// OnnxTextEmbedder: sentence embeddings from a Hugging Face model folder exported to ONNX
// (`optimum-cli export onnx`): model.onnx, tokenizer.json (WordPiece, BPE or Unigram; or a
// SentencePiece spm.model / tokenizer.model, models/text_tokenizer.h) and, optionally,
// config.json. Texts are tokenised (special tokens, truncation), batched by length
// (models/length_batcher.h), run through the shared OnnxSession, pooled and L2-normalised.
//
// Pooling: `mean` over the real tokens of the [batch, sequence, hidden] output (what
// sentence-transformers' MiniLM models use), `cls` (the first token's state) or `model` (a
// [batch, hidden] output the model computes itself, such as sentence_embedding or
// pooler_output). The model's inputs and outputs are checked against what the pooling needs
// when it is loaded, so a mismatched model fails before any document is read.
//
// Memory: with a budget (`batch_memory`, length batching), the rows of each batch are capped by
// a memory model of this model on this device (models/memory_model.h), fitted at load from a
// few runs of a private copy; and whatever the batching, a batch that fails for lack of memory
// is split in half and retried (models/split_on_oom.h), so vectors never depend on whether it
// was split.
//
// A sequence classifier runs the same way: pooling `model` on its `logits` output, not
// normalised (`output` and `normalize` below).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "models/length_batcher.h"
#include "models/memory_model.h"
#include "models/onnx_session.h"
#include "models/text_tokenizer.h"

namespace winnow {

enum class Pooling { kMean, kCls, kModel };

struct OnnxTextEmbedderOptions {
  Pooling pooling = Pooling::kMean;
  size_t max_tokens = 0;  // special tokens included; 0: tokenizer.json's, else config.json's
  BatchPlanOptions batching;
  OnnxSessionOptions session;
  std::string output;     // the output to read (empty: chosen by name and rank, see above)
  bool normalize = true;  // L2-normalise each row
  // Bytes one batch's run may take, weights included (0: no memory limit; length batching
  // only: fixed batching stays as it is, the baseline).
  double batch_memory = 0;
};

class OnnxTextEmbedder {
 public:
  // `folder`: the model folder. Errors name the file at fault and what is wrong.
  static Result<std::unique_ptr<OnnxTextEmbedder>> load(const std::string& folder,
                                                        const OnnxTextEmbedderOptions& options);

  // Embeds `texts`; `out` gets texts.size() × dimensions() floats, row i for texts[i].
  Status embed(std::span<const std::string_view> texts, std::vector<float>& out) const;
  // The same from texts tokenised already (by tokenize(), or a `tokenize` stage with the same
  // tokenizer and max_tokens): row i of `out` for tokens[i].
  Status embed_tokens(std::span<const std::span<const int64_t>> tokens,
                      std::vector<float>& out) const;
  // Tokens per text at most (special tokens included).
  size_t max_tokens() const { return max_tokens_; }
  const OnnxSession& session() const { return *session_; }
  // The folder's tokenizer (the process's one shared copy of it: models/text_tokenizer.h).
  const std::shared_ptr<const TextTokenizer>& tokenizer() const { return tokenizer_; }

  // Token ids of one text as embed() feeds them.
  void tokenize(std::string_view text, std::vector<int64_t>& ids) const;
  // The fitted memory model, when there is a memory budget.
  const std::optional<MemoryModel>& memory_model() const { return memory_model_; }

  // The tokens per text a model folder's texts are cut to: `requested` when not 0, else the
  // tokenizer's truncation, else config.json's max_position_embeddings (less RoBERTa's two
  // reserved positions), else 512. The embedder's own max_tokens(), for a stage that tokenises
  // for it without loading the model.
  static Result<size_t> resolve_max_tokens(const std::string& folder,
                                           const TextTokenizer& tokenizer, size_t requested);

 private:
  // Runs `batch` (indices into `tokens`), splitting it on out-of-memory failures, and writes
  // each row's vector at its index in `out` (tokens.size() rows of `dimensions`, set by the
  // first run).
  Status embed_batch(std::span<const size_t> batch,
                     std::span<const std::span<const int64_t>> tokens, std::vector<float>& out,
                     size_t& dimensions) const;
  // One run of `batch`, padded to its longest row.
  Status run_batch(std::span<const size_t> batch, std::span<const std::span<const int64_t>> tokens,
                   std::vector<float>& out, size_t& dimensions) const;

  OnnxTextEmbedderOptions options_;
  std::shared_ptr<const TextTokenizer> tokenizer_;
  std::shared_ptr<const OnnxSession> session_;
  std::string output_;  // the output pooled (or taken as is)
  bool token_types_ = false;
  bool attention_mask_ = false;
  size_t max_tokens_ = 512;
  std::optional<MemoryModel> memory_model_;
};

}  // namespace winnow
