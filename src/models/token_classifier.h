#pragma once
// TokenClassifier: a Hugging Face token-classification model (BERT-NER and the like) exported to
// ONNX, in a folder with model.onnx (a float `logits` output [batch, sequence, labels]),
// tokenizer.json (or spm.model) and config.json (id2label). It runs rows of token ids, batched
// by length (models/length_batcher.h) through the process's shared OnnxSession, and gives each
// row's per-token logits. The session and the tokenizer are loaded once per process and shared
// by every worker and stage that names them (their own caches: OnnxSession::load,
// load_text_tokenizer).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "models/length_batcher.h"
#include "models/onnx_session.h"
#include "models/text_tokenizer.h"

namespace winnow {

struct TokenClassifierOptions {
  size_t max_tokens = 0;  // per row, special tokens included; 0: the model's (as embed's)
  BatchPlanOptions batching;
  OnnxSessionOptions session;
};

class TokenClassifier {
 public:
  // Errors name the file at fault: no folder, no logits output of rank 3, no id2label.
  static Result<std::unique_ptr<TokenClassifier>> load(const std::string& folder,
                                                       const TokenClassifierOptions& options);

  const TextTokenizer& tokenizer() const { return *tokenizer_; }
  // Label names by id (config.json's id2label).
  const std::vector<std::string>& labels() const { return labels_; }
  // Tokens per row at most, special tokens included.
  size_t max_tokens() const { return max_tokens_; }
  // The special tokens the tokenizer puts before and after a text (HF's post-processor: [CLS]
  // and [SEP] for BERT), found by encoding a probe text with and without them.
  const std::vector<int64_t>& prefix() const { return prefix_; }
  const std::vector<int64_t>& suffix() const { return suffix_; }
  const OnnxSession& session() const { return *session_; }

  // Per-token logits of each row (token ids, specials included, at most max_tokens()):
  // out[i] gets rows[i].size() × labels().size() floats, row-major. Rows are independent of
  // the batches they run in (padding is masked).
  Status logits(std::span<const std::span<const int64_t>> rows,
                std::vector<std::vector<float>>& out) const;

 private:
  Status run_batch(std::span<const size_t> batch, std::span<const std::span<const int64_t>> rows,
                   std::vector<std::vector<float>>& out) const;

  TokenClassifierOptions options_;
  std::shared_ptr<const TextTokenizer> tokenizer_;
  std::shared_ptr<const OnnxSession> session_;
  std::vector<std::string> labels_;
  std::vector<int64_t> prefix_, suffix_;
  size_t max_tokens_ = 512;
  bool attention_mask_ = false;
  bool token_types_ = false;
};

// config.json's id2label of a model folder, by id (ids 0 to n-1). Errors name the file.
Result<std::vector<std::string>> read_id2label(const std::string& folder);

}  // namespace winnow
