#pragma once
// Token ids that a `tokenize` stage leaves on a batch for a model stage (embed or classify with
// a model folder) further on, so the model's step — on a GPU, its own step with its own workers
// (pipeline/step_fusion.h) — only runs the model while tokenising happens on the CPU steps
// before it. The ids travel with the batch between steps (core/doc_batch.h's caches).
//
// Ids are kept per tokenisation: the tokenizer (the process's one shared copy of its file, so
// the two stages loading the same folder share it), the tokens per text and the characters the
// text is cut to first. A model stage uses only ids made its own way, and only for rows whose
// text has not changed since; every other row it tokenises itself, so a tokenize stage never
// changes what a model stage computes, only where the tokenising is done.
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/doc_batch.h"
#include "models/onnx_text_embedder.h"
#include "models/text_tokenizer.h"

namespace winnow {

struct Tokenization {
  // Shared, not a bare pointer: ids made by a tokenizer since freed can never match another
  // loaded later at the same address.
  std::shared_ptr<const TextTokenizer> tokenizer;
  size_t max_tokens = 0;
  size_t max_chars = 0;  // code points the text is cut to first (0: none)
  bool operator==(const Tokenization&) const = default;

  // The ids of `text` this way.
  void encode(std::string_view text, std::vector<int64_t>& ids) const;
};

class TokenIdsCache final : public DocBatchCache {
 public:
  void text_changed(size_t row) override;
  // Keeps `ids` for `row` under `how`.
  void store(const Tokenization& how, size_t row, std::vector<int64_t> ids);
  // The ids stored for `row` under `how`, or null (none, or the row's text changed since).
  const std::vector<int64_t>* find(const Tokenization& how, size_t row) const;
  // Whether any row holds ids of another tokenisation than `how`.
  bool holds_other_than(const Tokenization& how) const;

 private:
  struct Rows {
    Tokenization how;
    std::vector<std::vector<int64_t>> ids;
    std::vector<uint8_t> valid;
  };
  std::vector<Rows> tokenizations_;
};

// The token ids of a batch's kept rows for a model stage, in row order: from the batch's
// TokenIdsCache where a tokenize stage left them, else tokenised here.
struct KeptRowTokens {
  std::vector<size_t> rows;                   // the kept rows
  std::vector<std::span<const int64_t>> ids;  // per kept row
  size_t from_cache = 0;                      // rows whose ids a tokenize stage made
  bool other_tokenization = false;  // the batch holds ids made another way (not used)
  std::vector<std::vector<int64_t>> owned;  // ids tokenised here
};
KeptRowTokens kept_row_tokens(const DocBatch& batch, const Tokenization& how);

// A model stage's side: its tokenisation (the model's tokenizer and max_tokens, texts cut to
// `max_chars` code points first) and, once per stage, a line on stderr when a tokenize stage
// before it tokenised another way (another folder, max_tokens or max_chars), whose ids it then
// cannot use.
class ModelStageTokens {
 public:
  ModelStageTokens(const OnnxTextEmbedder& model, size_t max_chars, std::string stage_name)
      : how_{model.tokenizer(), model.max_tokens(), max_chars},
        stage_name_(std::move(stage_name)) {}
  KeptRowTokens of(const DocBatch& batch) const;

 private:
  Tokenization how_;
  std::string stage_name_;
  mutable std::atomic<bool> warned_{false};
};

}  // namespace winnow
