#pragma once
// HfTokenizer: a Hugging Face tokenizer.json whose model is BPE or Unigram, run the way HF's
// tokenizers library runs `encode(text)` (tested token for token against it, under node, with
// gemma3's, llama3's and qwen3's real files and Unigram files built in the tests):
//  1. added tokens (special or not) found in the raw text (models/added_tokens.h) become their
//     ids; those marked `normalized` are found after normalisation instead;
//  2. each stretch between them is normalised and pre-tokenised (models/hf_text_pipeline.h);
//  3. each word goes through the model (models/subword_models.h);
//  4. the post-processor's special tokens (TemplateProcessing, RobertaProcessing,
//     BertProcessing; ByteLevel adds none; Sequence of these) go around the sequence, after it
//     is truncated so the whole fits max_length.
// Invalid UTF-8 bytes become U+FFFD first (HF only ever sees valid text).
//
// Thread-safe: encode() only reads (scratch and caches are per thread).
#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"
#include "models/text_tokenizer.h"

namespace winnow {

class HfTokenizer;

// Parses tokenizer.json text whose model is BPE or Unigram (`origin` names it in errors).
Result<std::shared_ptr<TextTokenizer>> parse_hf_tokenizer(std::string_view json,
                                                          const std::string& origin);

}  // namespace winnow
