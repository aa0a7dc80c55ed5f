// embed: annotates each kept document with a dense, L2-normalised vector (a float-vector field,
// written as a JSON array). Without `model`, the built-in `hashed` embedder (models/
// hashed_embedder.h): lexical features, no download, lexical rather than semantic similarity.
#include <memory>
#include <vector>

#include "models/hashed_embedder.h"
#include "stages/builtin_stages.h"

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

}  // namespace

StageSpec embed_spec() {
  return {
      "embed",
      "Annotates each document with an L2-normalised embedding (a JSON array of floats). "
      "Default: the built-in hashed embedder (word and character n-grams, sublinear TF, seeded "
      "sparse random projection): lexical, not semantic, similarity, and no model to download.",
      {
          {"field", ParamType::kString, "embedding", "field the vector is written to"},
          {"embedder", ParamType::kString, "hashed", "hashed (built in, needs no model file)"},
          {"dimensions", ParamType::kInt, "384", "length of the hashed embedder's vectors"},
          {"word_ngrams", ParamType::kInt, "2",
           "hashed: longest word n-gram used as a feature (1: words only; 0: none)"},
          {"char_ngram", ParamType::kInt, "4",
           "hashed: code points per character n-gram feature (0: none)"},
          {"seed", ParamType::kInt, "0",
           "hashed: seed of the feature hashes and of the projection (vectors are comparable "
           "only between runs with the same seed and dimensions)"},
      },
      [](const StageParams& p, StageContext&) -> Result<std::unique_ptr<Stage>> {
        if (p.get_string("embedder") != "hashed") {
          return p.error("embedder", "must be 'hashed'");
        }
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
}

}  // namespace winnow
