#pragma once
// DedupStep: the GlobalStep (core/global_step.h) shared by exact and fuzzy dedup.
//   identify: every kept document -> its bucket records (BucketKeyer) and a document-log entry
//             (id, survivor metric) -> DuplicateClusterer -> DuplicatesTable, written to the
//             result folder as duplicates.jsonl (or duplicates.bin) with summary.json.
//   remove:   remove() drops every document of the table that is not its group's survivor.
#include <atomic>
#include <functional>
#include <mutex>
#include <memory>
#include <string>

#include "core/global_step.h"
#include "dedup/bucket_keyer.h"
#include "dedup/duplicate_clusterer.h"
#include "dedup/duplicates_table.h"
#include "dedup/field_number.h"
#include "dedup/identify_checkpoint.h"
#include "dedup/pair_capture.h"

namespace winnow {

struct DedupStepOptions {
  std::string kind;  // "exact" or "fuzzy", for the report
  size_t memory_bytes = size_t{1} << 30;
  size_t partitions = 64;
  SurvivorRule survivor = SurvivorRule::kSmallestKey;
  std::string survivor_field;  // kHighestField: an annotation or a record field (a.b nested)
  TableFormat table_format = TableFormat::kJsonl;
  // > 0: a second identify pass re-reads the candidates' shingle sets, and only links whose
  // exact Jaccard similarity reaches this count (NeMo's optional check; 0 = off).
  double jaccard_threshold = 0;
  // Keep the read pass's records on disk (dedup/identify_checkpoint.h) so that a job killed
  // later in identify resumes without reading the input again, on any rank count. Costs a
  // write of every bucket record (about 24 bytes x bands per document); not with a
  // verification pass.
  bool checkpoint = false;
  // Tests: called once a phase of the checkpoint ("records", "links") is complete, before the
  // step goes on; an error fails the step there, as a killed job would stop.
  std::function<Status(const std::string& phase)> after_checkpoint;
};

class DedupStep : public GlobalStep {
 public:
  DedupStep(std::unique_ptr<BucketKeyer> keyer, DedupStepOptions options);

  Status begin_identify(const GlobalStepContext& context) override;
  bool resume_identify() override { return resumed_; }
  Status observe(const DocBatch& batch) override;
  bool another_pass() override;
  Status finish_identify() override;
  Status load_result(const std::string& result_dir) override;
  std::string summary_json() const override { return summary_json_; }
  std::string summary_text() const override { return summary_text_; }
  void set_report_sample(size_t pairs, uint64_t seed) override {
    report_pairs_ = pairs;
    report_seed_ = seed;
  }
  std::vector<ReportPair> report_pairs() const override;
  // Thread-safe. The writing pass shows the step each item that reaches it; the members of the
  // report's chosen pairs are kept (dedup/pair_capture.h), the rest cost a lookup.
  void note_for_report(const DocBatch& batch, size_t i);

  // The component of `key` when the document must be dropped (after identify, each rank knows
  // the removals of the documents it read; after load_result, every removal).
  const uint64_t* removal(DocKey key) const { return removal_.find(key.value()); }
  const BucketKeyer& keyer() const { return *keyer_; }
  // The identify pass's clusterer (tests reach its spill files through it).
  DuplicateClusterer* clusterer() { return clusterer_.get(); }

  static std::string table_name(TableFormat format);

 private:
  double metric(const DocBatch& batch, size_t i) const;
  Status settle_checkpoint(dist::Comm& comm);
  bool verifying() const { return options_.jaccard_threshold > 0 || keyer_->verifies_links(); }
  void make_summaries(const std::map<uint64_t, uint64_t>& sizes, uint64_t members,
                      uint64_t removed, const ClusterStats* stats, double seconds);

  std::unique_ptr<BucketKeyer> keyer_;
  DedupStepOptions options_;
  FieldNumber survivor_field_;  // kHighestField
  GlobalStepContext context_;
  std::string result_dir_;
  std::unique_ptr<DuplicateClusterer> clusterer_;
  std::atomic<uint64_t> observe_ns_{0};
  uint64_t observe_ns_total_ = 0;  // over every rank, once identify has finished
  int pass_ = 0;
  Status pass_status_;
  // Verification: the sets of this rank's linked documents, by their index in
  // clusterer_->linked_documents() (each slot is written by one worker only); they travel to
  // the ranks holding those documents' links.
  std::vector<std::vector<uint32_t>> shingle_sets_;
  RemovalSet removal_;
  std::unique_ptr<IdentifyCheckpoint> checkpoint_;
  bool resumed_ = false;
  bool resumed_from_links_ = false;
  uint64_t checkpoint_bytes_ = 0;  // over every rank
  Status checkpoint_status_;  // a failed checkpoint write, reported by finish_identify()
  std::mutex checkpoint_mutex_;
  size_t report_pairs_ = 0;
  uint64_t report_seed_ = 0;
  PairCapture capture_;
  std::string result_json_;
  std::string summary_json_;
  std::string summary_text_;
};

}  // namespace winnow
