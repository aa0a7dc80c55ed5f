// embed: annotates each kept document with a dense, L2-normalised vector (a float-vector field,
// written as a JSON array). Without `model`, the built-in `hashed` embedder (models/
// hashed_embedder.h): lexical features, no download, lexical rather than semantic similarity.
// With `model: FOLDER`, a Hugging Face model exported to ONNX (models/onnx_text_embedder.h).
#include <memory>
#include <vector>

#include "models/hashed_embedder.h"
#include "models/onnx_text_embedder.h"
#include "stages/builtin_stages.h"
#include "stages/models/onnx_model_params.h"
#include "stages/models/token_ids_cache.h"

namespace winnow {

namespace {

class HashedEmbedStage final : public Stage {
 public:
  HashedEmbedStage(HashedEmbedderOptions options, std::string field)
      : embedder_(options), field_(std::move(field)) {}

  Status process(DocBatch& batch) override {
    AnnotationColumn& column = batch.annotation(field_, AnnotationType::kFloatVector);
    std::vector<float> vector(embedder_.options().dimensions);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      embedder_.embed(batch.text(i), vector);
      column.set_vector(i, vector);
    }
    return Status::ok();
  }

 private:
  HashedEmbedder embedder_;
  std::string field_;
};

class ModelEmbedStage final : public Stage {
 public:
  ModelEmbedStage(std::unique_ptr<OnnxTextEmbedder> embedder, std::string field,
                  const std::string& stage_name)
      : embedder_(std::move(embedder)),
        tokens_(*embedder_, 0, stage_name),
        field_(std::move(field)) {}

  Status process(DocBatch& batch) override {
    const KeptRowTokens tokens = tokens_.of(batch);
    const std::vector<size_t>& rows = tokens.rows;
    AnnotationColumn& column = batch.annotation(field_, AnnotationType::kFloatVector);
    if (rows.empty()) return Status::ok();
    std::vector<float> vectors;
    WINNOW_RETURN_IF_ERROR(embedder_->embed_tokens(tokens.ids, vectors));
    const size_t dimensions = vectors.size() / rows.size();
    for (size_t k = 0; k < rows.size(); ++k) {
      column.set_vector(rows[k],
                        std::span<const float>(vectors).subspan(k * dimensions, dimensions));
    }
    return Status::ok();
  }

 private:
  std::unique_ptr<OnnxTextEmbedder> embedder_;
  ModelStageTokens tokens_;
  std::string field_;
};

Result<std::unique_ptr<Stage>> make_model_stage(const StageParams& p, const StageContext& context) {
  OnnxTextEmbedderOptions options;
  const std::string& pooling = p.get_string("pooling");
  if (pooling == "mean") {
    options.pooling = Pooling::kMean;
  } else if (pooling == "cls") {
    options.pooling = Pooling::kCls;
  } else if (pooling == "model") {
    options.pooling = Pooling::kModel;
  } else {
    return p.error("pooling", "must be mean, cls or model");
  }
  if (auto error = read_onnx_model_params(p, options)) return *error;
  options.output = p.get_string("output");
  auto embedder = OnnxTextEmbedder::load(p.get_string("model"), options);
  if (!embedder.is_ok()) return p.error("model", embedder.status().message());
  return std::unique_ptr<Stage>(new ModelEmbedStage(std::move(embedder).value(),
                                                    p.get_string("field"), context.stage_name()));
}

}  // namespace

StageSpec embed_spec() {
  StageSpec spec{
      "embed",
      "Annotates each document with an L2-normalised embedding (a JSON array of floats). "
      "Default: the built-in hashed embedder (word and character n-grams, sublinear TF, seeded "
      "sparse random projection): lexical, not semantic, similarity, and no model to download. "
      "With `model`, a Hugging Face model folder exported to ONNX.",
      {
          {"field", ParamType::kString, "embedding", "field the vector is written to"},
          {"model", ParamType::kString, "",
           "a model folder (model.onnx, tokenizer.json with a WordPiece model, config.json); "
           "empty: the built-in hashed embedder"},
          {"pooling", ParamType::kString, "mean",
           "model: mean (over real tokens), cls (first token) or model (the model's own "
           "[batch, hidden] output)"},
          {"output", ParamType::kString, "",
           "model: the output to read (empty: last_hidden_state for mean and cls; "
           "sentence_embedding, text_embeds (CLIP's text tower) or pooler_output for model; "
           "else the first output of the right rank)"},
          {"dimensions", ParamType::kInt, "384", "hashed: length of the vectors"},
          {"word_ngrams", ParamType::kInt, "2",
           "hashed: longest word n-gram used as a feature (1: words only; 0: none)"},
          {"char_ngram", ParamType::kInt, "4",
           "hashed: code points per character n-gram feature (0: none)"},
          {"seed", ParamType::kInt, "0",
           "hashed: seed of the feature hashes and of the projection (vectors are comparable "
           "only between runs with the same seed and dimensions)"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        if (!p.get_string("model").empty()) return make_model_stage(p, context);
        HashedEmbedderOptions options;
        int64_t dimensions = p.get_int("dimensions");
        if (dimensions < 1 || dimensions > HashedEmbedder::kMaxDimensions) {
          return p.error("dimensions",
                         fmt::format("must be between 1 and {}", HashedEmbedder::kMaxDimensions));
        }
        options.dimensions = static_cast<int>(dimensions);
        int64_t word_ngrams = p.get_int("word_ngrams");
        if (word_ngrams < 0 || word_ngrams > 8) {
          return p.error("word_ngrams", "must be between 0 and 8");
        }
        options.word_ngrams = static_cast<int>(word_ngrams);
        int64_t char_ngram = p.get_int("char_ngram");
        if (char_ngram < 0 || char_ngram > 16) {
          return p.error("char_ngram", "must be between 0 and 16");
        }
        options.char_ngram = static_cast<int>(char_ngram);
        if (options.word_ngrams == 0 && options.char_ngram == 0) {
          return p.error("char_ngram", "and word_ngrams are both 0: no features left");
        }
        options.seed = static_cast<uint64_t>(p.get_int("seed"));
        return std::unique_ptr<Stage>(new HashedEmbedStage(options, p.get_string("field")));
      },
  };
  // After `pooling` and `output`, so the model's parameters stay together in the reference.
  auto shared = onnx_model_params("model: ");
  spec.params.insert(spec.params.begin() + 4, shared.begin(), shared.end());
  // The hashed embedder is CPU code; a model on `device: cuda` declares its GPU share.
  spec.resources_for = [](const StageParams& p) {
    return p.get_string("model").empty() ? StageResources{} : onnx_stage_resources(p);
  };
  return spec;
}

}  // namespace winnow
