// fuzzy_dedup: MinHash + LSH near-duplicate removal (NeMo Curator's defaults: character
// 24-grams, 20 bands x 13 rows, seed 42; preset fineweb: word 5-grams, 14 x 8). Groups are
// connected components of documents sharing an LSH bucket; one survivor per group.
#include "dedup/fuzzy_keyer.h"
#include "gpu/gpu_runtime.h"
#include "stages/builtin_stages.h"
#include "stages/dedup/dedup_stage.h"

namespace winnow {

namespace {

// A 1..1000 integer parameter into `out`, when given.
Status read_small_count(const StageParams& p, const char* key, int& out) {
  if (!p.given(key)) return Status::ok();
  int64_t v = p.get_int(key);
  if (v < 1 || v > 1000) return p.error(key, "must be 1 to 1000");
  out = static_cast<int>(v);
  return Status::ok();
}

// The preset, then the keys that override it.
Result<MinHashParams> read_minhash_params(const StageParams& p, const StageContext& context) {
  auto with = [](ShingleOptions shingles, int bands, int rows) {
    MinHashParams params;
    params.shingles = shingles;
    params.bands = bands;
    params.rows = rows;
    return params;
  };
  auto preset =
      p.get_choice<MinHashParams>("preset", {{"nemo", with({ShingleKind::kChars, 24}, 20, 13)},
                                             {"fineweb", with({ShingleKind::kWords, 5}, 14, 8)}});
  if (!preset.is_ok()) return preset.status();
  MinHashParams mh = *preset;
  if (p.given("shingles")) {
    // Each kind with its usual length (NeMo's character 24-grams, word 5-grams).
    auto kind = p.get_choice<ShingleOptions>(
        "shingles", {{"chars", {ShingleKind::kChars, 24}}, {"words", {ShingleKind::kWords, 5}}});
    if (!kind.is_ok()) return kind.status();
    mh.shingles = *kind;
  }
  WINNOW_RETURN_IF_ERROR(read_small_count(p, "ngram", mh.shingles.n));
  WINNOW_RETURN_IF_ERROR(read_small_count(p, "bands", mh.bands));
  WINNOW_RETURN_IF_ERROR(read_small_count(p, "rows", mh.rows));
  if (mh.hashes() > 4096) return p.error("bands", "bands x rows must be at most 4096");
  auto scheme = p.get_choice<MinHashScheme>(
      "scheme",
      {{"classic", MinHashScheme::kClassic}, {"one_permutation", MinHashScheme::kOnePermutation}});
  if (!scheme.is_ok()) return scheme.status();
  mh.scheme = *scheme;
  mh.seed = p.given("seed") ? static_cast<uint64_t>(p.get_int("seed")) : context.seed();
  return mh;
}

// Which document of a group survives, and the Jaccard check.
Status read_survivor(const StageParams& p, DedupStepOptions& o) {
  auto survivor =
      p.get_choice<SurvivorRule>("survivor", {{"smallest_key", SurvivorRule::kSmallestKey},
                                              {"longest", SurvivorRule::kLongestText},
                                              {"field", SurvivorRule::kHighestField}});
  if (!survivor.is_ok()) return survivor.status();
  o.survivor = *survivor;
  if (o.survivor == SurvivorRule::kHighestField) {
    if (p.get_string("survivor_field").empty()) {
      return p.error("survivor_field", "is required with survivor: field");
    }
    o.survivor_field = p.get_string("survivor_field");
  } else if (p.given("survivor_field")) {
    return p.error("survivor_field", "is only used with survivor: field");
  }
  o.jaccard_threshold = p.get_float("jaccard_threshold");
  if (o.jaccard_threshold < 0 || o.jaccard_threshold > 1) {
    return p.error("jaccard_threshold", "must be between 0 (off) and 1");
  }
  return Status::ok();
}

// Signatures on a GPU when `device` asks for one or `auto` finds one in the run's budget.
Status place_minhash(const StageParams& p, const StageContext& context, const MinHashParams& mh,
                     FuzzyKeyer& keyer) {
  enum class Device { kAuto, kGpu, kCpu };
  auto device = p.get_choice<Device>(
      "device", {{"auto", Device::kAuto}, {"gpu", Device::kGpu}, {"cpu", Device::kCpu}});
  if (!device.is_ok()) return device.status();
  if (*device == Device::kGpu ||
      (*device == Device::kAuto && context.gpus() > 0 && mh.scheme == MinHashScheme::kClassic)) {
    auto pool = GpuMinHashPool::create(keyer.signer());
    if (pool.is_ok()) {
      keyer.use_gpu(std::move(pool).value());
    } else if (*device == Device::kGpu) {
      return p.error("device", "gpu, but " + pool.status().message());
    } else {
      gpu::note_cpu_fallback("fuzzy_dedup's MinHash", pool.status().message());
    }
  } else if (*device == Device::kAuto && mh.scheme == MinHashScheme::kClassic) {
    // No GPU in the budget: said once in a CUDA build (a CPU-only build stays quiet).
    gpu::note_cpu_fallback("fuzzy_dedup's MinHash",
                           gpu::device_count() > 0 ? "the run's GPU budget is 0" : "");
  }
  return Status::ok();
}

Result<std::unique_ptr<Stage>> create_fuzzy_dedup(const StageParams& p, StageContext& context) {
  auto mh = read_minhash_params(p, context);
  if (!mh.is_ok()) return mh.status();
  auto options = dedup_common_options(p, "fuzzy");
  if (!options.is_ok()) return options.status();
  DedupStepOptions o = std::move(options).value();
  WINNOW_RETURN_IF_ERROR(read_survivor(p, o));
  auto keyer = std::make_unique<FuzzyKeyer>(*mh);
  WINNOW_RETURN_IF_ERROR(place_minhash(p, context, *mh, *keyer));
  auto step = std::make_unique<DedupStep>(std::move(keyer), std::move(o));
  return std::unique_ptr<Stage>(new DedupStage(std::move(step), "fuzzy_duplicate", context));
}

}  // namespace

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
      create_fuzzy_dedup,
  };
  spec.record_fields = [](const StageParams& p) {
    return RecordFields::of({p.get_string("survivor_field")});
  };
  return spec;
}

}  // namespace winnow
