// tokenize: tokenises each kept document for a model stage further on (embed or classify with
// the same `model`), so that stage's step runs only the model. It matters when the model runs on
// a GPU: a stage with a GPU share is its own executor step, while tokenize (one CPU thread, no
// GPU) fuses with the CPU steps before it (pipeline/step_fusion.h), so tokenising happens on
// the CPU workers and the GPU's workers never wait on it. On the CPU it changes nothing but
// where the time is counted.
//
// The ids stay on the batch, not in the output (stages/models/token_ids_cache.h). They are made
// as the model stage makes them — the folder's tokenizer, its max_tokens, the text cut to
// max_chars code points first (classify's presets set both, so `preset` here does the same) —
// and the model stage uses them only when its own settings match; otherwise it tokenises
// itself and says so once on stderr. A stage between the two that changes a text makes the
// model stage tokenise that text again.
#include <memory>
#include <vector>

#include "models/onnx_text_embedder.h"
#include "models/text_tokenizer.h"
#include "stages/builtin_stages.h"
#include "stages/models/classifier_presets.h"
#include "stages/models/token_ids_cache.h"

namespace winnow {

namespace {

class TokenizeStage final : public Stage {
 public:
  TokenizeStage(std::shared_ptr<const TextTokenizer> tokenizer, size_t max_tokens,
                size_t max_chars)
      : how_{std::move(tokenizer), max_tokens, max_chars} {}

  Status process(DocBatch& batch) override {
    TokenIdsCache& cache = batch.cache<TokenIdsCache>();
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::vector<int64_t> ids;
      how_.encode(batch.text(i), ids);
      cache.store(how_, i, std::move(ids));
    }
    return Status::ok();
  }

 private:
  Tokenization how_;
};

}  // namespace

StageSpec tokenize_spec() {
  return {
      "tokenize",
      "Tokenises each document for a later embed or classify stage with the same model folder, "
      "so that stage's step (its own on a GPU) only runs the model; the ids are not written "
      "out. Give it the model stage's model, max_tokens, max_chars and preset.",
      {
          {"model", ParamType::kString, "",
           "the model folder of the embed or classify stage it tokenises for (its tokenizer.json, "
           "or spm.model / tokenizer.model)"},
          {"max_tokens", ParamType::kInt, "0",
           "tokens per document, special tokens included (0: the preset's, else tokenizer.json's "
           "truncation, else config.json's max_position_embeddings), as the model stage's"},
          {"max_chars", ParamType::kInt, "0",
           "cut each text to this many characters first, as classify's max_chars (0: the "
           "preset's, else no cut)"},
          {"preset", ParamType::kString, "",
           "classify's preset, for its max_tokens and max_chars (quality, domain, "
           "multilingual_domain, content_type, fineweb_edu, fineweb_mixtral_edu, "
           "fineweb_nemotron_edu)"},
      },
      [](const StageParams& p, StageContext&) -> Result<std::unique_ptr<Stage>> {
        const std::string& folder = p.get_string("model");
        if (folder.empty()) return p.error("model", "is required: the model stage's folder");
        const ClassifierPreset* preset = nullptr;
        if (auto error = read_classifier_preset(p, preset)) return *error;
        const int64_t max_tokens = p.get_int("max_tokens");
        if (max_tokens < 0 || max_tokens == 1 || max_tokens == 2) {
          return p.error("max_tokens", "must be 0 (the model's) or at least 3");
        }
        const int64_t max_chars = p.get_int("max_chars");
        if (max_chars < 0) return p.error("max_chars", "must be 0 or more");
        auto tokenizer = load_text_tokenizer(folder);
        if (!tokenizer.is_ok()) return p.error("model", tokenizer.status().message());
        size_t requested = static_cast<size_t>(max_tokens);
        if (requested == 0 && preset != nullptr) requested = preset->max_tokens;
        auto tokens = OnnxTextEmbedder::resolve_max_tokens(folder, *tokenizer.value(), requested);
        if (!tokens.is_ok()) return p.error("model", tokens.status().message());
        const size_t chars = max_chars > 0       ? static_cast<size_t>(max_chars)
                             : preset != nullptr ? preset->max_chars
                                                 : 0;
        return std::unique_ptr<Stage>(
            new TokenizeStage(std::move(tokenizer).value(), tokens.value(), chars));
      },
  };
}

}  // namespace winnow
