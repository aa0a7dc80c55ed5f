// semantic_dedup: SemDeDup as NeMo Curator runs it. Embeddings (a JSON array of numbers in the
// input record, `embedding_field`) are L2-normalised and clustered with spherical k-means
// (dedup/kmeans.h); inside each cluster the items are ranked (hard: farthest from the centroid
// first) and an item is dropped when its cosine similarity to an item ranked before it is at least
// 1 - eps. Two passes: identify (dedup/semantic_step.h), then remove (reason
// semantic_duplicate; items without a usable embedding: bad_embedding).
#include "core/number_text.h"
#include "core/worker_device.h"
#include "dedup/semantic_step.h"
#include "gpu/gpu_runtime.h"
#include "stages/builtin_stages.h"

namespace winnow {

namespace {

class SemanticDedupStage final : public Stage {
 public:
  SemanticDedupStage(std::unique_ptr<SemanticStep> step, StageContext& context)
      : step_(std::move(step)),
        duplicate_(context.declare_reason("semantic_duplicate")),
        bad_embedding_(context.declare_reason("bad_embedding")),
        cluster_column_(context.stage_name() + "_cluster"),
        matched_column_(context.stage_name() + "_matched_id") {}

  Status process(DocBatch& batch) override {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      step_->note_for_report(batch, i);
      const uint64_t key = batch.key(i).value();
      if (const SemanticRemoval* removal = step_->removal(key)) {
        batch.drop(i, duplicate_, removal->similarity);
        batch.annotation(cluster_column_, AnnotationType::kInt).set_int(i, removal->cluster);
        batch.annotation(matched_column_, AnnotationType::kString)
            .set_string(i, removal->matched_id);
      } else if (step_->bad(key)) {
        batch.drop(i, bad_embedding_);
      }
    }
    return Status::ok();
  }
  GlobalStep* global_step() override { return step_.get(); }

 private:
  std::unique_ptr<SemanticStep> step_;
  ReasonId duplicate_;
  ReasonId bad_embedding_;
  std::string cluster_column_;
  std::string matched_column_;
};

Result<double> parse_eps(const StageParams& p, const std::string& key, const std::string& text) {
  auto parsed = parse_number<double>(text);
  double value = parsed.value_or(0);
  if (!(value > 0 && value < 1)) {
    return p.error(key,
                   "each eps must be a number between 0 and 1 (exclusive), not '" + text + "'");
  }
  return value;
}

// The k-means half of the options: the embeddings, the clusters and the fit.
Status read_clustering(const StageParams& p, SemanticOptions& o) {
  o.embedding_field = p.get_string("embedding_field");
  if (o.embedding_field.empty()) return p.error("embedding_field", "must not be empty");
  int64_t k = p.get_int("n_clusters");
  if (k < 1 || k > (int64_t{1} << 24)) return p.error("n_clusters", "must be 1 to 16777216");
  o.n_clusters = static_cast<size_t>(k);
  int64_t max_iter = p.get_int("max_iter");
  if (max_iter < 1 || max_iter > 100000) return p.error("max_iter", "must be 1 to 100000");
  o.max_iter = static_cast<int>(max_iter);
  o.tol = p.get_float("tol");
  if (!(o.tol >= 0)) return p.error("tol", "must be >= 0");
  o.sample_fraction = p.get_float("sample_fraction");
  if (!(o.sample_fraction > 0 && o.sample_fraction <= 1)) {
    return p.error("sample_fraction", "must be in (0, 1]");
  }
  int64_t mppc = p.get_int("max_points_per_centroid");
  if (mppc < 1 || mppc > (int64_t{1} << 30)) {
    return p.error("max_points_per_centroid", "must be 1 to 1073741824");
  }
  o.max_points_per_centroid = static_cast<size_t>(mppc);
  o.spherical = p.get_bool("spherical");
  o.normalize = p.get_bool("normalize");
  return Status::ok();
}

// The pruning half: ranking, thresholds, and the memory and blocks the pruner uses.
Status read_pruning(const StageParams& p, SemanticOptions& o) {
  auto ranking = p.get_choice<SemanticRanking>("ranking", {{"hard", SemanticRanking::kHard},
                                                           {"easy", SemanticRanking::kEasy},
                                                           {"random", SemanticRanking::kRandom},
                                                           {"field", SemanticRanking::kField}});
  if (!ranking.is_ok()) return ranking.status();
  o.ranking = *ranking;
  if (o.ranking == SemanticRanking::kField && p.get_string("ranking_field").empty()) {
    return p.error("ranking_field", "is required with ranking: field");
  }
  if (p.given("ranking_field") && o.ranking != SemanticRanking::kField) {
    return p.error("ranking_field", "is only used with ranking: field");
  }
  o.ranking_field = p.get_string("ranking_field");
  o.eps = p.get_float("eps");
  if (!(o.eps > 0 && o.eps < 1)) return p.error("eps", "must be between 0 and 1 (exclusive)");
  const auto& sweep = p.get_string_list("eps_sweep");
  if (sweep.size() > 31) return p.error("eps_sweep", "at most 31 values");
  for (const std::string& text : sweep) {
    auto eps = parse_eps(p, "eps_sweep", text);
    if (!eps.is_ok()) return eps.status();
    o.eps_sweep.push_back(*eps);
  }
  o.keep_one_per_group = p.get_bool("keep_one_per_group");
  int64_t dimension = p.get_int("dimension");
  if (dimension < 0 || dimension > 1000000) return p.error("dimension", "must be 0 to 1000000");
  o.dimension = static_cast<size_t>(dimension);
  int64_t memory_mb = p.get_int("memory_mb");
  if (memory_mb < 1 || memory_mb > (int64_t{1} << 20)) {
    return p.error("memory_mb", "must be between 1 and 1048576");
  }
  o.memory_bytes = static_cast<size_t>(memory_mb) << 20;
  int64_t partitions = p.get_int("partitions");
  if (partitions < 1 || partitions > 4096) return p.error("partitions", "must be 1 to 4096");
  o.partitions = static_cast<size_t>(partitions);
  int64_t block = p.get_int("block_rows");
  if (block < 1 || block > 1000000) return p.error("block_rows", "must be 1 to 1000000");
  o.block = static_cast<size_t>(block);
  o.checkpoint = p.get_bool("checkpoint");
  return Status::ok();
}

// Where the products run: a GPU when `device` asks for one or `auto` finds one in the run's
// budget. The decisions are the same on either (dedup/semantic_device.h); a device that fails
// during the run hands its work back to the CPU, saying so once.
Status read_device(const StageParams& p, const StageContext& context, SemanticOptions& o) {
  enum class Device { kAuto, kGpu, kCpu };
  auto device = p.get_choice<Device>(
      "device", {{"auto", Device::kAuto}, {"gpu", Device::kGpu}, {"cpu", Device::kCpu}});
  if (!device.is_ok()) return device.status();
  if (*device == Device::kCpu) return Status::ok();
  const int devices = gpu::device_count();
  if (devices > 0 && (*device == Device::kGpu || context.gpus() > 0)) {
    o.device.device = pick_gpu_device(worker_gpu_device(), devices, 0);
    return Status::ok();
  }
  if (*device == Device::kGpu) {
    return p.error("device", "gpu, but " + (devices > 0 ? std::string("no device")
                                                        : gpu::unavailable_reason()));
  }
  gpu::note_cpu_fallback("semantic_dedup's products",
                         devices > 0 ? "the run's GPU budget is 0" : "");
  return Status::ok();
}

std::vector<ParamSpec> semantic_dedup_params() {
  return {
      {"embedding_field", ParamType::kString, "embedding",
       "the embedding: an embed stage's field of that name, else a record field holding an "
       "array of numbers (a Parquet list column; a.b nested)"},
      {"n_clusters", ParamType::kInt, "100", "k-means clusters (NeMo warns below 1000 at scale)"},
      {"max_iter", ParamType::kInt, "300", "k-means iterations at most"},
      {"tol", ParamType::kFloat, "0.0001",
       "k-means stops when its objective changes by less than this, relatively"},
      {"seed", ParamType::kInt, "", "k-means and random-ranking seed (default: the pipeline seed)"},
      {"sample_fraction", ParamType::kFloat, "1.0",
       "fit k-means on this fraction of the items (a seeded draw by document key), assign all"},
      {"max_points_per_centroid", ParamType::kInt, "256",
       "k-means fits on at most this many points per centroid (a seeded draw by key); logged"},
      {"spherical", ParamType::kBool, "true",
       "spherical k-means (centroids normalised, assignment by cosine)"},
      {"normalize", ParamType::kBool, "true",
       "L2-normalise the embeddings (false: they are taken as given, unit length assumed)"},
      {"ranking", ParamType::kString, "hard",
       "which item of a near-duplicate set is kept: hard (farthest from the centroid), easy "
       "(nearest), random (seeded), or field (highest ranking_field)"},
      {"ranking_field", ParamType::kString, "",
       "numeric annotation or record field for ranking: field (items without it rank last)"},
      {"eps", ParamType::kFloat, "0.01",
       "drop an item whose similarity to a better-ranked item is >= 1 - eps"},
      {"eps_sweep", ParamType::kStringList, "['0.001', '0.005', '0.01', '0.05', '0.1']",
       "eps values whose kept fraction is reported (same similarities, one pass); at most 31"},
      {"keep_one_per_group", ParamType::kBool, "false",
       "only kept items can remove others, so each near-duplicate set keeps one (NeMo's "
       "default, false, also drops an item whose match was itself dropped)"},
      {"dimension", ParamType::kInt, "0",
       "embedding length (0: that of the first item with one); others are bad_embedding"},
      {"memory_mb", ParamType::kInt, "1024",
       "memory for the embedding log before it spills to disk (the output's global/ folder); "
       "a cluster whose vectors exceed this divided by threads is pruned from disk"},
      {"partitions", ParamType::kInt, "64", "cluster spill files (pruned in parallel)"},
      {"block_rows", ParamType::kInt, "1024",
       "rows per similarity product block (block x block products, the same for any "
       "memory_mb)"},
      {"device", ParamType::kString, "auto",
       "where the k-means assignment and the pruning's products run: auto (a GPU when the "
       "run has one), gpu or cpu; the decisions are the same bits on either"},
      {"checkpoint", ParamType::kBool, "false",
       "keep the identify pass's items (keys, ranking values, embeddings) under "
       "global/_checkpoints/ until the result is whole, so a job killed in the k-means, the "
       "pruning or the tables resumes without reading or embedding the input again, on any "
       "rank count (costs writing them)"},
  };
}

}  // namespace

StageSpec semantic_dedup_spec() {
  StageSpec spec{
      "semantic_dedup",
      "Drops semantic near-duplicates (SemDeDup, NeMo Curator's semantics): k-means on the "
      "embeddings, then inside each cluster every item whose cosine similarity to a "
      "better-ranked item is at least 1 - eps. Two passes: identify, then remove (reasons "
      "semantic_duplicate, bad_embedding).",
      semantic_dedup_params(),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        SemanticOptions o;
        o.stage_label = context.stage_name();
        o.seed = p.given("seed") ? static_cast<uint64_t>(p.get_int("seed")) : context.seed();
        if (Status status = read_clustering(p, o); !status.is_ok()) return status;
        if (Status status = read_pruning(p, o); !status.is_ok()) return status;
        if (Status status = read_device(p, context, o); !status.is_ok()) return status;
        return std::unique_ptr<Stage>(
            new SemanticDedupStage(std::make_unique<SemanticStep>(std::move(o)), context));
      },
  };
  // Any item with an embedding: documents (embed), images (image_embed), clips (clip_embed).
  spec.takes = ItemKinds(ItemKind::kDocument) | ItemKind::kImage | ItemKind::kClip;
  // Either may be an annotation instead; a column of that name is then read for nothing.
  spec.record_fields = [](const StageParams& p) {
    return RecordFields::of({p.get_string("embedding_field"), p.get_string("ranking_field")});
  };
  return spec;
}

}  // namespace winnow
