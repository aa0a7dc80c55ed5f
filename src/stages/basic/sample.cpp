// sample: keeps a seeded random fraction of documents. The draw is a hash of the document's
// key and the seed, so the same documents are kept whatever the threads or batch sizes.
#include "core/hash.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

class SampleStage final : public Stage {
 public:
  SampleStage(double fraction, uint64_t seed, StageContext& context)
      : fraction_(fraction), seed_(seed), not_sampled_(context.declare_reason("not_sampled")) {}

  Status process(DocBatch& batch) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      double draw = unit_interval(hash_u64(batch.key(i).value(), seed_));
      if (draw >= fraction_) batch.drop(i, not_sampled_, draw);
    }
    return Status::ok();
  }

 private:
  double fraction_;
  uint64_t seed_;
  ReasonId not_sampled_;
};

}  // namespace

StageSpec sample_spec() {
  StageSpec spec{
      "sample",
      "Keeps a seeded random fraction of the documents (deterministic per document key).",
      {
          {"fraction", ParamType::kFloat, "", "fraction kept, 0 to 1", true},
          {"seed", ParamType::kInt, "", "seed of the draw (default: the pipeline seed)"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        double fraction = p.get_float("fraction");
        if (!(fraction >= 0.0 && fraction <= 1.0)) return p.error("fraction", "must be in [0, 1]");
        uint64_t seed = p.has("seed") ? static_cast<uint64_t>(p.get_int("seed")) : context.seed();
        // Different sample stages in one pipeline draw independently.
        seed ^= hash64(context.stage_name());
        return std::unique_ptr<Stage>(new SampleStage(fraction, seed, context));
      },
  };
  spec.takes = ItemKinds::any();  // documents and media items alike
  return spec;
}

}  // namespace winnow
