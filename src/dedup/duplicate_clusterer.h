#pragma once
// DuplicateClusterer: the shared back half of exact and fuzzy dedup. Documents arrive as
// bucket records (hi, lo, doc): for fuzzy dedup (band, band key, doc), for exact dedup the
// 128-bit text hash. Records are partitioned by bucket on disk (PartitionedSpill), each
// partition is sorted and cut into buckets, consecutive members of a bucket are linked (a
// chain, as NeMo Curator does: enough for connectivity, linear in bucket size), and the links
// become connected components with a parallel union-find. Each component keeps one survivor.
//
// Everything that decides the result is order-free: component id = smallest DocKey in the
// component; the survivor is the best by the rule, ties going to the smallest DocKey.
//
// Across ranks (ClustererOptions::comm with several; one process runs the same code on a
// one-rank Comm). Each rank adds the documents it reads. compute_links() shuffles the records
// so that each bucket meets on the rank that owns it (dedup/bucket_shuffle.h), where its links
// are made; each link then goes to one rank by its hash (a pair sharing buckets of several
// bands is linked on several ranks), where it stays; each linked document is registered with its vertex owner (one of a fixed
// number of partitions, owned round-robin: dedup/component_labels.h), which learns the rank
// that read it, and that rank learns which of its documents are linked and which ranks hold
// their links. finish() then, collectively:
//   1. verification (when asked): each reader sends a linked document's set (shingles, image
//      signature) only to the ranks holding its links, which keep the links that hold;
//   2. each rank collapses its kept links into stars (local union-find) and the components are
//      labelled across ranks (label_components: FastSV rounds over all_to_all);
//   3. each vertex owner tells the reader of each document its label; the reader sends
//      (label, key, metric, id) to the label's owner, which chooses the group's survivor (and,
//      for star groups, receives the group's kept links);
//   4. the label owner tells each reader which of its documents go (each rank learns only the
//      removals of its own documents), and sends the table rows to their partition's owner
//      (dedup/table_partitions.h), which writes it; rank 0 joins the partitions.
// No rank ever holds every link or every linked document; keys stay 64 bits throughout.
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"
#include "dedup/doc_info_log.h"
#include "dedup/duplicates_table.h"
#include "dedup/pair_chooser.h"
#include "dedup/partitioned_spill.h"
#include "dedup/component_labels.h"
#include "dedup/table_partitions.h"
#include "dist/comm.h"

namespace winnow {

struct BucketRecord {
  uint64_t hi;
  uint64_t lo;
  uint64_t doc;
};

enum class SurvivorRule {
  kSmallestKey,   // the first document (in input order: shard, row)
  kLongestText,   // metric = text length in bytes
  kHighestField,  // metric = a numeric field; documents without it rank last
};

// How the members of one bucket are linked. kChain (NeMo's default) links consecutive members;
// kAnchors links every member to the bucket's first two members, so that when links are
// verified (exact Jaccard) one false candidate cannot cut a bucket of true duplicates apart.
// kAllPairs links every pair of a bucket's members, for a verified method whose relation is
// not transitive within a bucket (perceptual hashes under a Hamming threshold: members that
// share a band may each be near a different one); quadratic in the bucket's size, so meant
// for buckets made small by wide bands.
enum class LinkShape { kChain, kAnchors, kAllPairs };

// What a group is. kComponents: the connected components of the kept links (NeMo's rule; a
// removed member may be far from its survivor, linked through others). kStars: every removed
// member is linked to its survivor itself (dedup/star_groups.h), for a verified relation that is
// not transitive (perceptual hashes); meant with LinkShape::kAllPairs, so that every pair a
// bucket holds is a link.
enum class GroupShape { kComponents, kStars };

struct ClustererOptions {
  std::string spill_dir;
  size_t memory_bytes = size_t{1} << 30;
  int threads = 1;
  size_t partitions = 64;  // spill partitions; also vertex and table partitions across ranks
  SurvivorRule survivor = SurvivorRule::kSmallestKey;
  LinkShape links = LinkShape::kChain;
  GroupShape groups = GroupShape::kComponents;
  dist::Comm* comm =
      nullptr;  // null: one process; else compute_links() and finish() are collective
  // The run report's sample of (removed, survivor) pairs (dedup/pair_chooser.h); 0: none.
  size_t report_pairs = 0;
  uint64_t report_seed = 0;
};

struct ClusterStats {
  uint64_t documents = 0;  // documents that gave records
  SpillStats spill;
  uint64_t doc_info_spilled_bytes = 0;
  uint64_t shared_buckets = 0;  // buckets with two or more documents
  // Distinct links between bucket members, and those each rank holds.
  uint64_t links = 0;
  std::vector<uint64_t> links_by_rank;
  uint64_t links_rejected = 0;  // links verification refused
  uint64_t propagation_rounds = 0;  // of the component labelling
  // GroupShape::kStars: linked documents kept because they match no survivor themselves (the
  // connected components would have removed them through a chain).
  uint64_t kept_unmatched = 0;
  // Across ranks: the bucket records each rank sent to the others (bytes, by rank), and the
  // rounds of exchange. Empty in one process.
  std::vector<uint64_t> shuffle_bytes_by_rank;
  uint64_t shuffle_rounds = 0;
};

// What finish() leaves this rank: the removals of the documents it read, and the figures of
// the whole table (the same on every rank).
struct ClusterResult {
  RemovalSet removals;
  std::map<uint64_t, uint64_t> component_sizes;  // size -> groups of that size
  uint64_t members = 0;                          // documents in groups
  uint64_t removed = 0;
  std::vector<ChosenPair> report_pairs;  // the report's sample, the same on every rank
};

// Where finish() writes the table (collectively; the same path on every rank).
struct TableOutput {
  std::string path;
  TableFormat format = TableFormat::kJsonl;
};

class DuplicateClusterer {
 public:
  explicit DuplicateClusterer(ClustererOptions options);

  // Thread-safe. `doc_infos`: DocInfoLog::serialize'd entries for the same documents.
  Status add(const BucketRecord* records, size_t n, std::string_view doc_infos, uint64_t documents);
  // Decides a candidate link from its two documents' verification sets.
  using LinkCheck =
      std::function<bool(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b)>;

  // Collective, after the last add(): the candidate links (held by their buckets' owners) and
  // the registration of linked documents. linked_documents(): the documents this rank read that
  // some link touches, sorted (a verification pass fills their sets).
  Status compute_links();
  const std::vector<uint64_t>& linked_documents() const { return linked_; }
  // After compute_links(): the links this rank holds (a resumable step keeps them).
  const std::vector<std::pair<uint64_t, uint64_t>>& links() const { return links_; }
  // Instead of add() and compute_links(), on a resumed run (collective): the document entries
  // (DocInfoLog::serialize'd, `documents` of them) and links kept by an earlier run, each rank
  // any share of them; the links are registered as compute_links() would.
  Status add_documents(std::string_view doc_infos, uint64_t documents);
  // The document entries this rank holds, as blocks of DocInfoLog::serialize'd entries.
  Status for_each_document_block(const std::function<Status(std::string_view)>& visit) {
    return infos_.for_each_block(visit);
  }
  Status resume_links(std::vector<std::pair<uint64_t, uint64_t>> links);
  // Collective. The groups over the links `check` keeps (all without one), their survivors,
  // the table written to `table`. `sets`: verification sets aligned with linked_documents()
  // (with `check`). Calls compute_links() first when it has not been.
  Result<ClusterResult> finish(const TableOutput& table,
                               std::vector<std::vector<uint32_t>>* sets = nullptr,
                               const LinkCheck& check = nullptr);

  const ClusterStats& stats() const { return stats_; }
  // Spill files written so far (tests corrupt them).
  std::vector<std::string> spill_files() const { return spill_.files(); }
  Status flush_for_test() { return spill_.flush(); }

 private:
  struct Member;
  dist::Comm& comm() const { return options_.comm ? *options_.comm : dist::local_comm(); }
  // Links of the buckets in `spill` (this rank's), in parallel; adds its shared buckets.
  Status link_buckets(PartitionedSpill<BucketRecord>& spill,
                      std::vector<std::pair<uint64_t, uint64_t>>& links, uint64_t& shared_buckets);
  // The steps of compute_links() and finish().
  Status shuffle_and_link(std::vector<std::pair<uint64_t, uint64_t>>& links,
                          uint64_t& shared_buckets);
  Status hold_links(std::vector<std::pair<uint64_t, uint64_t>> links);
  Status register_linked();
  Status verify_links(std::vector<std::vector<uint32_t>>& sets, const LinkCheck& check);
  Status labels_to_readers(const ComponentLabels& labels, std::vector<Member>& members);
  Status links_to_labels(const ComponentLabels& labels,
                         std::vector<std::pair<uint64_t, uint64_t>>& kept,
                         std::vector<std::array<uint64_t, 3>>& label_links);
  void build_groups(std::vector<Member>& members,
                    std::vector<std::array<uint64_t, 3>>& label_links,
                    std::vector<TableRow>& rows,
                    std::vector<std::vector<std::pair<uint64_t, uint64_t>>>& removals,
                    ClusterResult& result, PairChooser& chooser);
  // Per member of one group (by key): its group's smallest index, or UINT32_MAX in none; and
  // at a group's index, the group's survivor.
  void component_groups(const std::vector<double>& metric, std::vector<uint32_t>& group,
                        std::vector<uint32_t>& survivor) const;
  void star_groups(const std::vector<double>& metric,
                   const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
                   std::vector<uint32_t>& group, std::vector<uint32_t>& survivor);

  ClustererOptions options_;
  PartitionedSpill<BucketRecord> spill_;
  DocInfoLog infos_;
  std::atomic<uint64_t> documents_{0};
  bool links_ready_ = false;
  std::vector<std::pair<uint64_t, uint64_t>> links_;  // of this rank's buckets
  // Registration. At a vertex owner: (linked document, the rank that read it), sorted. At a
  // reader: its linked documents, and (document, rank holding some of its links), sorted.
  std::vector<std::pair<uint64_t, uint64_t>> reader_of_;
  std::vector<uint64_t> linked_;
  std::vector<std::pair<uint64_t, uint64_t>> holders_;
  ClusterStats stats_;
};

}  // namespace winnow
