#pragma once
// MegatronEncoder: the writing pass's encoder of kept documents under `output.format:
// megatron`. Each kept document's text goes through the tokenizer winnow's model stages use
// (models/text_tokenizer.h: Hugging Face's encode(text), without the post-processor's special
// tokens unless add_special_tokens is set, never truncated), followed by the end-of-document id
// when asked for and the document has tokens (Megatron's preprocess_data.py --append-eod), and
// becomes that document's little-endian ids in batch.encoded_kept, one encoded_kept_ends entry per
// document, for the shard's writer (io/shard_output.h, io/megatron_dataset.h). Rejected rows and
// errors stay JSON Lines (io/jsonl_encoder.h). The ids depend only on the text, so the files are
// the same for any threads or batch sizes.
#include <memory>
#include <string>

#include "core/doc_batch.h"
#include "core/status.h"
#include "io/output_format.h"
#include "models/text_tokenizer.h"

namespace winnow {

class MegatronEncoder {
 public:
  // Loads settings.tokenizer and checks the eod id against its vocabulary; the dtype follows
  // from the vocabulary (io/megatron_dataset.h) and is `dtype()`.
  static Result<std::unique_ptr<MegatronEncoder>> load(const MegatronSettings& settings);

  MegatronDtype dtype() const { return dtype_; }
  // Thread-safe. Fills batch.encoded_kept / encoded_kept_ends from its kept documents; an id
  // the dtype cannot hold (a tokenizer whose added tokens lie past its vocabulary) is an error.
  Status encode_kept(DocBatch& batch) const;

 private:
  MegatronEncoder(std::shared_ptr<const TextTokenizer> tokenizer, MegatronSettings settings,
                  MegatronDtype dtype)
      : tokenizer_(std::move(tokenizer)), settings_(std::move(settings)), dtype_(dtype) {}

  std::shared_ptr<const TextTokenizer> tokenizer_;
  MegatronSettings settings_;
  MegatronDtype dtype_;
};

}  // namespace winnow
