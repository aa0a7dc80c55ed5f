#pragma once
// SemanticStep: the GlobalStep (core/global_step.h) of semantic_dedup (SemDeDup, NeMo
// Curator's semantics; ../shared/reference/dedup.md).
//   identify: every kept item -> EmbeddingLog (key, rank value, id, excerpt, embedding);
//             then, in finish_identify():
//             1. load, sort by key, normalise into a flat float32 file mapped read-only
//                (dedup/semantic_items.h, dedup/mapped_matrix.h); items without a usable
//                embedding are set aside (dropped as bad_embedding in the remove pass, each
//                named by file/line)
//             2. k-means (dedup/kmeans.h) on a seeded, key-based sample; assign every item
//                (dedup/semantic_clustering.h)
//             3. rank each cluster's members; write them, in rank order, to checksummed
//                spill files (dedup/cluster_spill.h); a cluster over memory_mb / threads
//                gets its rows in a tile file of its own (dedup/semantic_clustering.h)
//             4. per partition, in parallel: prune (dedup/semantic_pruning.h,
//                dedup/cluster_pruner.h; streamed clusters from disk, dedup/streamed_pruner.h),
//                at eps and at every eps of the sweep
//             5. write duplicates.jsonl (item, matched item, similarity, cluster),
//                bad_embeddings.jsonl, summary.json / .txt / .html to the result folder
//   remove:   removal() / bad() tell the stage which items to drop.
// With `checkpoint`, the identify pass's items are kept on disk (dedup/identify_checkpoint.h,
// phase "records") until the result is whole: a rerun of a job killed in steps 1-5 replays them,
// on any rank count, instead of reading and embedding its input again.
// Nothing depends on arrival order or thread count: items are sorted by key before anything
// is computed, products run in fixed blocks (dedup/blas_gemm.h), results are sorted by key.
// Across ranks (context.comm) each rank runs the phases on its own items: the fit exchanges
// exact centroid sums, step 3 sends each cluster to its owner rank, which prunes it
// (dedup/semantic_owners.h), and each rank's removal() / bad() know its own documents; rank 0
// writes the result, the same bytes as one process.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/global_step.h"
#include "dedup/embedding_log.h"
#include "dedup/embedding_reader.h"
#include "dedup/field_number.h"
#include "dedup/identify_checkpoint.h"
#include "dedup/pair_capture.h"
#include "dedup/semantic_options.h"

namespace winnow {

class ClusterSpill;
struct ItemOutcome;
struct SemanticClustering;
struct SemanticSummary;
namespace dist {
class Comm;
}

struct SemanticRemoval {
  uint64_t key = 0;
  uint32_t cluster = 0;
  float similarity = 0;
  std::string matched_id;
};

class SemanticStep : public GlobalStep {
 public:
  explicit SemanticStep(SemanticOptions options);

  Status begin_identify(const GlobalStepContext& context) override;
  Status observe(const DocBatch& batch) override;
  Status finish_identify() override;
  Status load_result(const std::string& result_dir) override;
  bool resume_identify() override { return resumed_; }
  std::string summary_json() const override { return summary_json_; }
  std::string summary_text() const override { return summary_text_; }
  std::string summary_html() const override { return summary_html_; }
  void set_report_sample(size_t pairs, uint64_t seed) override {
    report_pairs_ = pairs;
    report_seed_ = seed;
  }
  // The report's pairs: a removed item and the item it matched, with their cosine. Chosen on
  // rank 0 (which holds the whole table); each rank's writing pass captures its own items, and
  // the report is rank 0's.
  std::vector<ReportPair> report_pairs() const override;
  // Thread-safe: the writing pass shows each item that reaches the stage (pair_capture.h).
  void note_for_report(const DocBatch& batch, size_t i);

  const SemanticOptions& options() const { return options_; }
  // The removal of `key`, when it must be dropped as a near-duplicate.
  const SemanticRemoval* removal(uint64_t key) const;
  // True when `key` had no usable embedding.
  bool bad(uint64_t key) const;
  // After finish_identify(): the most embedding rows this rank held at once: its own loaded
  // rows plus the cluster rows it received in one round (one process: all of them).
  uint64_t rows_held() const { return rows_held_; }

  // Tests: called once the clusters are on disk, before they are read back.
  void set_after_spill(std::function<Status(const ClusterSpill&)> hook) {
    after_spill_ = std::move(hook);
  }

  // Result file names in the result folder.
  static constexpr const char* kTable = "duplicates.jsonl";
  static constexpr const char* kBadTable = "bad_embeddings.jsonl";

 private:
  // duplicates.jsonl and bad_embeddings.jsonl (rank 0 writes): `removed`, the items removed
  // at eps, and `bad`, both sorted by key.
  Status write_tables(const std::vector<ItemOutcome>& removed,
                      const std::vector<std::pair<uint64_t, std::string>>& bad);
  SemanticSummary summarise(const std::vector<uint64_t>& removed_at,
                            const std::vector<ItemOutcome>& removed,
                            const std::vector<std::pair<uint64_t, std::string>>& bad,
                            size_t items, size_t dimension,
                            const SemanticClustering& clustering) const;
  Status write_summaries(const std::string& json, const std::string& run_json);
  // Collective: every rank's bad items, sorted, on rank 0 (other ranks get theirs only).
  static Result<std::vector<std::pair<uint64_t, std::string>>> gather_bad(
      dist::Comm& comm, const std::vector<std::pair<uint64_t, std::string>>& mine);
  // The checkpoint's items into the log (a resumed run), or the checkpoint completed (a first
  // run, once every rank has read its shards).
  Status settle_checkpoint(dist::Comm& comm);
  // removals_ and bad_ from the tables in `result_dir` (every removal, not only this rank's).
  Status load_tables(const std::string& result_dir);
  // Writes OUT/global/<stage>/<name> (rank 0 only: every rank holds the same result).
  Status write_result_file(const std::string& name, const std::string& content) const;

  SemanticOptions options_;
  EmbeddingReader reader_;
  FieldNumber ranking_field_;  // ranking: field
  GlobalStepContext context_;
  std::unique_ptr<EmbeddingLog> log_;
  std::unique_ptr<IdentifyCheckpoint> checkpoint_;
  bool resumed_ = false;
  Status checkpoint_status_;  // a failed checkpoint write, reported by finish_identify()
  std::mutex checkpoint_mutex_;
  std::atomic<uint64_t> observe_ns_{0};
  uint64_t rows_held_ = 0;                  // see rows_held()
  std::vector<SemanticRemoval> removals_;  // sorted by key
  std::vector<uint64_t> bad_;              // sorted
  std::string summary_json_;
  std::string summary_text_;
  std::string summary_html_;
  std::function<Status(const ClusterSpill&)> after_spill_;
  size_t report_pairs_ = 0;
  uint64_t report_seed_ = 0;
  PairCapture capture_;
};

}  // namespace winnow
