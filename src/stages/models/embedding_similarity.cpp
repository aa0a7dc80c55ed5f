// embedding_similarity: the cosine similarity of two float-vector fields of each item, kept
// when at least min_similarity. With image_embed's picture embedding and embed's embedding of
// the caption (CLIP's two towers), this is the CLIP score filter of DataComp and LAION:
// pictures whose caption does not describe them.
#include <fmt/format.h>

#include <cmath>

#include "stages/builtin_stages.h"

namespace winnow {

namespace {

class EmbeddingSimilarity final : public Stage {
 public:
  EmbeddingSimilarity(std::string field, std::string other_field, double min_similarity,
                      bool annotate, StageContext& context)
      : field_(std::move(field)),
        other_field_(std::move(other_field)),
        min_similarity_(min_similarity),
        annotate_(annotate),
        stage_name_(context.stage_name()),
        low_(context.declare_reason("low_similarity")) {}

  Status process(DocBatch& batch) override {
    const AnnotationColumn* a = batch.find_annotation(field_);
    const AnnotationColumn* b = batch.find_annotation(other_field_);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      for (auto [column, name] : {std::pair{a, &field_}, std::pair{b, &other_field_}}) {
        if (!column || column->type() != AnnotationType::kFloatVector || !column->has(i)) {
          return Status::errorf("{}: '{}' has no '{}' vector; put the stage that writes it "
                                "(image_embed, embed) before this one",
                                stage_name_, batch.id(i), *name);
        }
      }
      std::span<const float> x = a->vector_at(i), y = b->vector_at(i);
      if (x.size() != y.size()) {
        return Status::errorf("{}: '{}' has a {}-value '{}' and a {}-value '{}'; the two "
                              "models must embed into one space",
                              stage_name_, batch.id(i), x.size(), field_, y.size(), other_field_);
      }
      double dot = 0, xx = 0, yy = 0;
      for (size_t d = 0; d < x.size(); ++d) {
        dot += static_cast<double>(x[d]) * y[d];
        xx += static_cast<double>(x[d]) * x[d];
        yy += static_cast<double>(y[d]) * y[d];
      }
      // A zero vector is like nothing: similarity 0.
      const double similarity = xx > 0 && yy > 0 ? dot / std::sqrt(xx * yy) : 0.0;
      if (annotate_) batch.annotation(stage_name_, AnnotationType::kFloat).set_float(i, similarity);
      if (similarity < min_similarity_) batch.drop(i, low_, similarity);
    }
    return Status::ok();
  }

 private:
  std::string field_, other_field_;
  double min_similarity_;
  bool annotate_;
  std::string stage_name_;
  ReasonId low_;
};

}  // namespace

StageSpec embedding_similarity_spec() {
  StageSpec spec{
      "embedding_similarity",
      "The cosine similarity of two embeddings of each item; items below min_similarity are "
      "dropped (reason low_similarity, score: the similarity). With image_embed's vector and "
      "embed's vector of the caption from the same CLIP model, it is the CLIP score filter "
      "(DataComp keeps >= 0.3 with ViT-B/32, 0.28 with ViT-L/14).",
      {
          {"field", ParamType::kString, "embedding", "one vector field (image_embed's)"},
          {"other_field", ParamType::kString, "caption_embedding",
           "the other (embed's `field` on the captions)"},
          {"min_similarity", ParamType::kFloat, "-1",
           "least cosine kept (-1: none dropped, the similarity only recorded)"},
          {"annotate", ParamType::kBool, "true",
           "record the similarity in a field named after the stage"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        const double min = p.get_float("min_similarity");
        if (!(min >= -1 && min <= 1)) return p.error("min_similarity", "must be in [-1, 1]");
        if (p.get_string("field") == p.get_string("other_field")) {
          return p.error("other_field", "must differ from field");
        }
        return std::unique_ptr<Stage>(new EmbeddingSimilarity(
            p.get_string("field"), p.get_string("other_field"), min, p.get_bool("annotate"),
            context));
      },
  };
  spec.takes = ItemKinds(ItemKind::kDocument) | ItemKind::kImage;
  return spec;
}

}  // namespace winnow
