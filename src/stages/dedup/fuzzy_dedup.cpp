// fuzzy_dedup: MinHash + LSH near-duplicate removal (NeMo Curator's defaults: character
// 24-grams, 20 bands x 13 rows, seed 42; preset fineweb: word 5-grams, 14 x 8). Groups are
// connected components of documents sharing an LSH bucket; one survivor per group.
#include "dedup/fuzzy_keyer.h"
#include "gpu/gpu_runtime.h"
#include "stages/builtin_stages.h"
#include "stages/dedup/dedup_stage.h"

namespace winnow {

StageSpec fuzzy_dedup_spec() {
  std::vector<ParamSpec> params = {
      {"preset", ParamType::kString, "nemo",
       "nemo (chars 24, 20 x 13) or fineweb (words 5, 14 x 8); other keys override it"},
      {"shingles", ParamType::kString, "",
       "chars (code points of the raw text) or words "
       "(after datatrove's normalisation)"},
      {"ngram", ParamType::kInt, "", "shingle length in characters or words"},
      {"bands", ParamType::kInt, "", "LSH bands"},
      {"rows", ParamType::kInt, "", "hashes per band"},
      {"seed", ParamType::kInt, "", "permutation seed (default: the pipeline seed)"},
      {"scheme", ParamType::kString, "classic",
       "classic (K permutations per shingle) or one_permutation (one hash per shingle, "
       "optimal densification; as accurate in tests, several times faster)"},
      {"survivor", ParamType::kString, "smallest_key",
       "which document of a group is kept: smallest_key (first in input order), longest, "
       "or field (highest survivor_field; ties to the first)"},
      {"jaccard_threshold", ParamType::kFloat, "0",
       "> 0: verify candidates by exact Jaccard of their shingle sets (NeMo used 0.8); costs a "
       "second read of the input and the candidates' shingle sets in memory"},
      {"survivor_field", ParamType::kString, "",
       "numeric annotation or record field (a.b nested) for survivor: field"},
      {"device", ParamType::kString, "auto",
       "where signatures and band keys are computed: auto (a GPU when the run has one and this "
       "build has CUDA, else the CPU), gpu (an error without one) or cpu; the output is the "
       "same on both (classic scheme; one_permutation always runs on the CPU)"},
  };
  for (auto& p : dedup_common_params()) params.push_back(std::move(p));
  StageSpec spec{
      "fuzzy_dedup",
      "Drops near-duplicates (MinHash + LSH + connected components), keeping one document per "
      "group. Two passes: identify, then remove (reason fuzzy_duplicate).",
      std::move(params),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        MinHashParams mh;
        const std::string& preset = p.get_string("preset");
        if (preset == "nemo") {
          mh.shingles = {ShingleKind::kChars, 24};
          mh.bands = 20;
          mh.rows = 13;
        } else if (preset == "fineweb") {
          mh.shingles = {ShingleKind::kWords, 5};
          mh.bands = 14;
          mh.rows = 8;
        } else {
          return p.error("preset", "must be nemo or fineweb, not '" + preset + "'");
        }
        if (p.given("shingles")) {
          // Each kind with its usual length (NeMo's character 24-grams, word 5-grams).
          auto kind = p.get_choice<ShingleOptions>(
              "shingles", {{"chars", {ShingleKind::kChars, 24}}, {"words", {ShingleKind::kWords, 5}}});
          if (!kind.is_ok()) return kind.status();
          mh.shingles = *kind;
        }
        if (p.given("ngram")) {
          int64_t n = p.get_int("ngram");
          if (n < 1 || n > 1000) return p.error("ngram", "must be 1 to 1000");
          mh.shingles.n = static_cast<int>(n);
        }
        if (p.given("bands")) {
          int64_t b = p.get_int("bands");
          if (b < 1 || b > 1000) return p.error("bands", "must be 1 to 1000");
          mh.bands = static_cast<int>(b);
        }
        if (p.given("rows")) {
          int64_t r = p.get_int("rows");
          if (r < 1 || r > 1000) return p.error("rows", "must be 1 to 1000");
          mh.rows = static_cast<int>(r);
        }
        if (mh.hashes() > 4096) return p.error("bands", "bands x rows must be at most 4096");
        auto scheme = p.get_choice<MinHashScheme>(
            "scheme", {{"classic", MinHashScheme::kClassic},
                       {"one_permutation", MinHashScheme::kOnePermutation}});
        if (!scheme.is_ok()) return scheme.status();
        mh.scheme = *scheme;
        mh.seed = p.given("seed") ? static_cast<uint64_t>(p.get_int("seed")) : context.seed();

        auto options = dedup_common_options(p, "fuzzy");
        if (!options.is_ok()) return options.status();
        DedupStepOptions o = std::move(options).value();
        const std::string& survivor = p.get_string("survivor");
        if (survivor == "smallest_key") {
          o.survivor = SurvivorRule::kSmallestKey;
        } else if (survivor == "longest") {
          o.survivor = SurvivorRule::kLongestText;
        } else if (survivor == "field") {
          o.survivor = SurvivorRule::kHighestField;
          if (p.get_string("survivor_field").empty()) {
            return p.error("survivor_field", "is required with survivor: field");
          }
          o.survivor_field = p.get_string("survivor_field");
        } else {
          return p.error("survivor",
                         "must be smallest_key, longest or field, not '" + survivor + "'");
        }
        if (p.given("survivor_field") && o.survivor != SurvivorRule::kHighestField) {
          return p.error("survivor_field", "is only used with survivor: field");
        }
        o.jaccard_threshold = p.get_float("jaccard_threshold");
        if (o.jaccard_threshold < 0 || o.jaccard_threshold > 1) {
          return p.error("jaccard_threshold", "must be between 0 (off) and 1");
        }
        auto keyer = std::make_unique<FuzzyKeyer>(mh);
        const std::string& device = p.get_string("device");
        if (device != "auto" && device != "gpu" && device != "cpu") {
          return p.error("device", "must be auto, gpu or cpu, not '" + device + "'");
        }
        if (device == "gpu" ||
            (device == "auto" && context.gpus() > 0 && mh.scheme == MinHashScheme::kClassic)) {
          auto pool = GpuMinHashPool::create(keyer->signer());
          if (pool.is_ok()) {
            keyer->use_gpu(std::move(pool).value());
          } else if (device == "gpu") {
            return p.error("device", "gpu, but " + pool.status().message());
          } else {
            gpu::note_cpu_fallback("fuzzy_dedup's MinHash", pool.status().message());
          }
        } else if (device == "auto" && mh.scheme == MinHashScheme::kClassic) {
          // No GPU in the budget: said once in a CUDA build (a CPU-only build stays quiet).
          gpu::note_cpu_fallback("fuzzy_dedup's MinHash",
                                 gpu::device_count() > 0 ? "the run's GPU budget is 0" : "");
        }
        auto step = std::make_unique<DedupStep>(std::move(keyer), std::move(o));
        return std::unique_ptr<Stage>(new DedupStage(std::move(step), "fuzzy_duplicate", context));
      },
  };
  spec.record_fields = [](const StageParams& p) {
    return RecordFields::of({p.get_string("survivor_field")});
  };
  return spec;
}

}  // namespace winnow
