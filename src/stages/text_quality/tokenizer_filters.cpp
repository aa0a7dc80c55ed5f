// NeMo Curator's two tokenizer filters, on a SentencePiece model
// (models/sentencepiece_tokenizer.h) or, with `tokenizer:`, a Hugging Face tokenizer.json of any
// model type (WordPiece, BPE, Unigram) or a model folder (models/text_tokenizer.h; counted as
// HF's encode() counts, special tokens included):
//
// - token_count (TokenCountFilter): the number of tokens the tokenizer gives the text, kept when
//   min_tokens <= count <= max_tokens. NeMo calls a Hugging Face tokenizer's encode(), which adds
//   the model's special tokens (BOS for Llama 2 and Mistral, EOS for T5); add_bos / add_eos add
//   them here, so the count equals len(tokenizer.encode(text)) when the HF tokenizer is the
//   model's SentencePiece tokenizer.model.
// - tokenizer_fertility (TokenizerFertilityFilter, a code filter): code points per SentencePiece
//   piece (len(text) / len(encode_as_pieces(text))), kept when >= min_char_to_token_ratio. A text
//   that encodes to no piece (empty, or white space the model normalises away) scores -1, as in
//   NeMo, and so is dropped by any non-negative minimum.
#include <filesystem>
#include <limits>
#include <memory>

#include "core/utf8.h"
#include "models/sentencepiece_tokenizer.h"
#include "models/text_tokenizer.h"
#include "stages/builtin_stages.h"
#include "stages/text_quality/score_filter.h"

namespace winnow {

namespace {

// Loads the model named by `key`; the error names the key and the path.
Result<std::shared_ptr<const SentencePieceTokenizer>> load_model(const StageParams& p,
                                                                 const std::string& key) {
  const std::string& path = p.get_string(key);
  if (path.empty()) return p.error(key, "must name a SentencePiece .model file");
  auto model = SentencePieceTokenizer::load(path);
  if (!model.is_ok()) return p.error(key, model.status().message());
  return model;
}

}  // namespace

// A Hugging Face tokenizer named by `tokenizer`: a tokenizer.json, or a model folder holding one
// (or a SentencePiece spm.model / tokenizer.model).
Result<std::shared_ptr<const TextTokenizer>> load_hf_tokenizer(const StageParams& p) {
  std::string path = p.get_string("tokenizer");
  auto tokenizer = load_text_tokenizer(path);
  if (!tokenizer.is_ok()) return p.error("tokenizer", tokenizer.status().message());
  return tokenizer;
}

// Exactly one of `model` (SentencePiece) and `tokenizer` (Hugging Face) is given.
Status check_one_tokenizer(const StageParams& p, bool has_model) {
  bool has_tokenizer = !p.get_string("tokenizer").empty();
  if (has_model == has_tokenizer) {
    return p.error("model", has_model ? "give model or tokenizer, not both"
                                      : "is required (a SentencePiece .model file), or tokenizer "
                                        "(a Hugging Face tokenizer.json or model folder)");
  }
  return Status::ok();
}

StageSpec token_count_spec() {
  return score_filter_spec(
      "token_count",
      "NeMo TokenCountFilter: keeps documents whose token count lies in [min_tokens, "
      "max_tokens]. The tokenizer is a SentencePiece .model file: the tokenizer.model that "
      "Hugging Face models such as Llama 2, Mistral, Gemma and T5 ship (NeMo takes the HF "
      "tokenizer; its encode() adds special tokens: set add_bos for Llama/Mistral/Gemma, add_eos "
      "for T5 to count as it does).",
      "token_count",
      {{"model", ParamType::kString, "", "SentencePiece model file (e.g. a tokenizer.model)"},
       {"tokenizer", ParamType::kString, "",
        "instead of model: a Hugging Face tokenizer.json (WordPiece, BPE or Unigram) or a model "
        "folder holding one (or spm.model); counts as its encode() does, special tokens "
        "included, never truncated"},
       {"min_tokens", ParamType::kInt, "0", "fewest tokens kept"},
       {"max_tokens", ParamType::kInt, "", "most tokens kept (default: no limit)"},
       {"add_bos", ParamType::kBool, "false",
        "count the model's BOS token, as an HF encode() does for Llama 2, Mistral, Gemma"},
       {"add_eos", ParamType::kBool, "false",
        "count the model's EOS token, as an HF encode() does for T5"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        int64_t lo = p.get_int("min_tokens");
        int64_t hi =
            p.has("max_tokens") ? p.get_int("max_tokens") : std::numeric_limits<int64_t>::max();
        if (lo < 0) return p.error("min_tokens", "must be 0 or more");
        if (hi < lo) return p.error("max_tokens", "must be at least min_tokens");
        WINNOW_RETURN_IF_ERROR(check_one_tokenizer(p, !p.get_string("model").empty()));
        const double high = hi == std::numeric_limits<int64_t>::max()
                                ? std::numeric_limits<double>::infinity()
                                : static_cast<double>(hi);
        if (p.get_string("model").empty()) {
          auto hf = load_hf_tokenizer(p);
          if (!hf.is_ok()) return hf.status();
          return ScoreRule{[tokenizer = std::move(hf).value()](DocSegments& d) {
                             return static_cast<double>(tokenizer->count(d.text()));
                           },
                           static_cast<double>(lo), high};
        }
        auto model = load_model(p, "model");
        if (!model.is_ok()) return model.status();
        std::shared_ptr<const SentencePieceTokenizer> tokenizer = std::move(model).value();
        size_t special = 0;
        if (p.get_bool("add_bos")) {
          if (tokenizer->bos_id() < 0) return p.error("add_bos", "the model has no BOS token");
          ++special;
        }
        if (p.get_bool("add_eos")) {
          if (tokenizer->eos_id() < 0) return p.error("add_eos", "the model has no EOS token");
          ++special;
        }
        return ScoreRule{[tokenizer, special](DocSegments& d) {
                           return static_cast<double>(tokenizer->count(d.text()) + special);
                         },
                         static_cast<double>(lo),
                         hi == std::numeric_limits<int64_t>::max()
                             ? std::numeric_limits<double>::infinity()
                             : static_cast<double>(hi)};
      });
}

StageSpec tokenizer_fertility_spec() {
  return score_filter_spec(
      "tokenizer_fertility",
      "NeMo TokenizerFertilityFilter (code): keeps documents with at least "
      "min_char_to_token_ratio code points per SentencePiece piece; a text with no piece "
      "scores -1 (NeMo) and is dropped.",
      "tokenizer_fertility",
      {{"model", ParamType::kString, "",
        "SentencePiece model file (NeMo: path_to_sentencepiece_model)"},
       {"path_to_sentencepiece_model", ParamType::kString, "", "NeMo's name for `model`"},
       {"tokenizer", ParamType::kString, "",
        "instead of model: a Hugging Face tokenizer.json (WordPiece, BPE or Unigram) or a model "
        "folder holding one (or spm.model); tokens counted as its encode() gives them, special "
        "tokens included"},
       {"min_char_to_token_ratio", ParamType::kFloat, "2.5", "fewest code points per piece"}},
      [](const StageParams& p) -> Result<ScoreRule> {
        WINNOW_RETURN_IF_ERROR(check_non_negative(p, "min_char_to_token_ratio"));
        bool has_model = !p.get_string("model").empty();
        bool has_nemo = !p.get_string("path_to_sentencepiece_model").empty();
        if (has_model && has_nemo) {
          return p.error("model", "give model or path_to_sentencepiece_model, not both");
        }
        WINNOW_RETURN_IF_ERROR(check_one_tokenizer(p, has_model || has_nemo));
        if (!has_model && !has_nemo) {
          auto hf = load_hf_tokenizer(p);
          if (!hf.is_ok()) return hf.status();
          return ScoreRule{[tokenizer = std::move(hf).value()](DocSegments& d) {
                             size_t tokens = tokenizer->count(d.text());
                             if (tokens == 0) return -1.0;
                             return static_cast<double>(count_code_points(d.text())) /
                                    static_cast<double>(tokens);
                           },
                           p.get_float("min_char_to_token_ratio")};
        }
        auto model = load_model(p, has_model ? "model" : "path_to_sentencepiece_model");
        if (!model.is_ok()) return model.status();
        std::shared_ptr<const SentencePieceTokenizer> tokenizer = std::move(model).value();
        return ScoreRule{[tokenizer](DocSegments& d) {
                           size_t pieces = tokenizer->count(d.text());
                           if (pieces == 0) return -1.0;
                           return static_cast<double>(count_code_points(d.text())) /
                                  static_cast<double>(pieces);
                         },
                         p.get_float("min_char_to_token_ratio")};
      });
}

}  // namespace winnow
